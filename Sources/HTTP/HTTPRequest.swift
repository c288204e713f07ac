import Foundation

/// One HTTP request for `HTTPClient`.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, `PUT`, `POST`, `DELETE`, …
    public var method: String
    /// The URL as sent: its path and query are sent as they are spelled (percent-encoding is the caller's).
    public var url: URL
    /// Header lines in order. `Host`, `Content-Length` and `Accept-Encoding` are the client's.
    public var headers: [(name: String, value: String)]
    /// What is sent after the headers.
    public var body: Body
    /// Ask for a gzip-encoded answer and decode it as it arrives (the body limit counts decoded bytes).
    public var acceptGzip: Bool
    /// Told how many bytes of the body have been handed to the connection so far (from the
    /// client's thread: keep it quick).
    public var onBodyProgress: (@Sendable (Int64) -> Void)?

    /// A request body.
    public enum Body: Sendable {
        case none
        case bytes(Data)
        /// `length` bytes of the file at `url` from `offset`, read as they are sent (never loaded whole).
        case file(URL, offset: Int64, length: Int64)

        /// How many bytes are sent.
        public var count: Int64 {
            switch self {
            case .none: 0
            case .bytes(let data): Int64(data.count)
            case .file(_, _, let length): length
            }
        }
    }

    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], body: Body = .none,
                acceptGzip: Bool = false, onBodyProgress: (@Sendable (Int64) -> Void)? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.acceptGzip = acceptGzip
        self.onBodyProgress = onBodyProgress
    }
}

/// Where an answer's body goes.
public enum ResponseDestination: Sendable {
    /// Into memory, at most `limit` bytes: a longer body fails the request (`TransferFailure.tooLarge`).
    case memory(limit: Int)
    /// Into the file at this URL (created or truncated), as it arrives.
    case file(URL)
}

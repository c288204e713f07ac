import CCurl
import Foundation

/// How long a request may take, in three ways (each precise to a few milliseconds):
/// `connect` until the answer's headers arrive (counted from the end of the request's body,
/// or from its start while nothing of the body has gone), `read` of silence while a body is
/// under way (the answer's, or the request's after its first bytes), `deadline` for the whole
/// request and answer.
public struct HTTPTimeouts: Sendable {
    public var connect: TimeInterval
    public var read: TimeInterval
    public var deadline: TimeInterval

    public init(connect: TimeInterval, read: TimeInterval, deadline: TimeInterval) {
        self.connect = connect
        self.read = read
        self.deadline = deadline
    }
}

/// An HTTP/1.1 client on libcurl: one thread drives every request of the client through
/// curl's multi interface (connections are kept and reused), with the timeouts of
/// `HTTPTimeouts`, bodies streamed from files and into files or into memory within a limit,
/// no redirect followed (a 3xx is an answer like any other), and header lines counted as they
/// arrive: an answer with more than `maxHeaderLines` lines or `maxHeaderBytes` bytes of them
/// is cut off at once (`TransferFailure.headersTooLong`).
///
/// Why libcurl through a hand-made wrapper: the package mirror has no maintained Swift binding
/// of libcurl, and Foundation's URLSession, the other client at hand, parses header lines in
/// quadratic time (an answer of 50,000 header lines cost some 18 s of CPU, issue 46) and has
/// no deadline of its own; async-http-client would add minutes to every clean build. The
/// wrapper is small: `CCurl`'s typed setters (curl's are variadic, which Swift cannot call)
/// and the callbacks in `CurlTransfer`.
public final class HTTPClient: Sendable {
    /// Most header lines accepted in one answer (interim `100 Continue` lines included).
    public static let maxHeaderLines = 256
    /// Most bytes of header lines accepted in one answer.
    public static let maxHeaderBytes = 64 << 10

    private let loop: CurlLoop
    private let timeouts: HTTPTimeouts
    private let userAgent: String

    public init(timeouts: HTTPTimeouts, userAgent: String = "quake-bake (+https://github.com/quake-bake)") {
        self.timeouts = timeouts
        self.userAgent = userAgent
        loop = CurlLoop()
    }

    deinit { loop.close() }

    /// Ends the client: requests in flight fail with `CancellationError`, later ones at once.
    public func close() { loop.close() }

    /// Sends `request` and waits for the whole answer; throws `TransferFailure`, or
    /// `CancellationError` when the task is cancelled (the request is stopped at once).
    public func send(_ request: HTTPRequest, into destination: ResponseDestination = .memory(limit: 16 << 20)) async throws -> HTTPResponse {
        let transfer = CurlTransfer(request: request, destination: destination, timeouts: timeouts, userAgent: userAgent)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }
}

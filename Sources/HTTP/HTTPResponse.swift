import Foundation

/// One HTTP answer as received (redirects are answers too: the client follows none).
public struct HTTPResponse: Sendable {
    /// The status code of the final answer (after any `100 Continue`).
    public var status: Int
    /// Its header lines in the order received.
    public var headers: [(name: String, value: String)]
    /// The body, when it went to memory (empty when it went to a file).
    public var body: Data
    /// Seconds from the start of the request to the end of the answer.
    public var duration: TimeInterval

    public init(status: Int, headers: [(name: String, value: String)], body: Data, duration: TimeInterval) {
        self.status = status
        self.headers = headers
        self.body = body
        self.duration = duration
    }

    /// The value of the first header line called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

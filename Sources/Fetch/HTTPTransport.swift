import Foundation
import QuakeCommon
import QuakeHTTP

/// One HTTP answer as received.
typealias HTTPAnswer = HTTPResponse
/// The retry policy every client of ours shares (QuakeHTTP).
typealias RetryPolicy = QuakeHTTP.RetryPolicy

/// The service's GETs over QuakeHTTP's libcurl client, asking for gzip (decoded as it
/// arrives, the body limit counting decoded bytes), with three timeouts: `connectTimeout`
/// until the response headers arrive, `readTimeout` of silence while the body arrives,
/// `deadline` for the whole answer; at most `maxBodyBytes` of body. Redirects are not
/// followed here: the 3xx answer goes back to `ServiceClient`, which follows it (or not) as a
/// request of its own, counted in the budget and the journal.
final class HTTPTransport: Sendable {
    private let client: HTTPClient
    private let maxBodyBytes: Int

    init(connectTimeout: TimeInterval, readTimeout: TimeInterval, deadline: TimeInterval, maxBodyBytes: Int) {
        client = HTTPClient(timeouts: HTTPTimeouts(connect: connectTimeout, read: readTimeout, deadline: deadline))
        self.maxBodyBytes = maxBodyBytes
    }

    /// Ends the client; in-flight requests fail.
    func close() { client.close() }

    /// GETs `url`, asking for gzip.
    func get(_ url: URL) async throws -> HTTPAnswer {
        try await client.send(HTTPRequest(url: url, acceptGzip: true), into: .memory(limit: maxBodyBytes))
    }
}

import Foundation
import Logging
import QuakeCommon
import QuakeHTTP

/// Requests to one bucket: signed (SigV4), sent through QuakeHTTP, retried with backoff
/// when the store is busy or away (5xx, `SlowDown`, 429, timeouts, refused connections;
/// `Retry-After` obeyed up to the policy's bound), and sorted into answers, refusals
/// (`S3Failure`, exit 1) and unavailability (`S3Failure`, exit 75).
public final class S3Client: Sendable {
    let target: S3Target
    private let signer: SigV4Signer
    private let http: HTTPClient
    private let retry: RetryPolicy
    private let logger: Logger

    public init(target: S3Target, credentials: S3Credentials, timeouts: HTTPTimeouts, retry: RetryPolicy, logger: Logger) {
        self.target = target
        signer = SigV4Signer(credentials: credentials, region: target.region)
        http = HTTPClient(timeouts: timeouts)
        self.retry = retry
        self.logger = logger
    }

    /// Ends the client's connections.
    public func close() { http.close() }

    /// One request to the bucket.
    struct Call {
        /// For messages and logs: `PutObject`, `HeadObject`, …
        var operation: String
        var method: String
        /// The full key, or `nil` for the bucket.
        var key: String?
        var query: [(name: String, value: String?)] = []
        var headers: [(name: String, value: String)] = []
        var body: HTTPRequest.Body = .none
        /// The hex sha256 of the body (empty body: that of nothing).
        var payloadSHA256 = FileDigests.of(Data()).sha256Hex
        var destination: ResponseDestination = .memory(limit: 8 << 20)
        /// Statuses other than 2xx that are answers, not refusals (404 of a HEAD).
        var answers: Set<Int> = []
        var onBodyProgress: (@Sendable (Int64) -> Void)?
    }

    /// Sends `call` until it gets an answer (2xx or one of `call.answers`), a refusal, or gives up.
    func perform(_ call: Call) async throws -> HTTPResponse {
        var lastProblem = ""
        let first = Date()
        for attempt in 1...max(1, retry.maxAttempts) {
            try Task.checkCancellation()
            var retryAfter: TimeInterval?
            do {
                let response = try await http.send(request(for: call), into: call.destination)
                logger.debug("\(call.operation) \(call.key ?? target.bucket) → \(response.status), \(response.duration < 1 ? "\(Int(response.duration * 1000)) ms" : String(format: "%.1f s", response.duration))")
                if let failure = classify(response, call: call) {
                    switch failure {
                    case .refused(let error): throw error
                    case .transient(let problem):
                        lastProblem = problem
                        retryAfter = RetryPolicy.retryAfter(response.header("Retry-After"))
                    }
                } else {
                    return response
                }
            } catch let failure as TransferFailure {
                if case .tls = failure {
                    throw S3Failure(code: "tls", description: "cannot talk to \(target.origin.absoluteString): \(failure)", exitStatus: .failure)
                }
                lastProblem = "\(failure)"
            }
            guard attempt < retry.maxAttempts else { break }
            if let retryAfter, retryAfter > retry.maxRetryAfter {
                throw S3Failure.unavailable(call.operation, key: call.key, target: target, attempts: attempt,
                                            lastProblem: "\(lastProblem); it asks to wait \(DurationText.describe(retryAfter)), longer than the "
                                                + "\(DurationText.describe(retry.maxRetryAfter)) allowed")
            }
            let wait = retry.delay(afterAttempt: attempt, retryAfter: retryAfter)
            guard retry.mayRetry(elapsed: Date().timeIntervalSince(first), wait: wait, askedByService: retryAfter != nil) else {
                throw S3Failure.unavailable(call.operation, key: call.key, target: target, attempts: attempt,
                                            lastProblem: "\(lastProblem); it has tried for longer than \(DurationText.describe(retry.giveUpAfter))")
            }
            logger.warning("\(call.operation) attempt \(attempt) failed: \(lastProblem); retrying in \(String(format: "%.1f", wait)) s")
            try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
        throw S3Failure.unavailable(call.operation, key: call.key, target: target, attempts: retry.maxAttempts, lastProblem: lastProblem)
    }

    private enum Problem {
        case refused(S3Failure)
        case transient(String)
    }

    /// Codes of a 4xx that a later attempt may not meet.
    private static let transientCodes: Set<String> = ["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling",
                                                       "ThrottlingException", "RequestTimeTooSkewed-never"]

    /// What is wrong with `response`, if anything. A 200 whose body is an `<Error>` (a
    /// multipart completion or a part copy can end so) is read as the error it holds.
    private func classify(_ response: HTTPResponse, call: Call) -> Problem? {
        let errorXML = response.body.isEmpty ? nil : S3XML.parse(response.body).flatMap { $0.name == "Error" ? $0 : nil }
        if (200...299).contains(response.status) && errorXML == nil { return nil }
        if call.answers.contains(response.status) && errorXML?.text("Code").map({ $0 != "NoSuchBucket" }) ?? true { return nil }
        let code = errorXML?.text("Code") ?? HTTPStatusWords.code(for: response.status)
        let message = errorXML?.text("Message") ?? ""
        if response.status >= 500 || response.status == 429 || Self.transientCodes.contains(code) {
            return .transient("status \(response.status) \(code)\(message.isEmpty ? "" : ": \(message)")")
        }
        return .refused(S3Failure.refused(call.operation, key: call.key, target: target, status: response.status, code: code,
                                          message: message, credentials: signer.credentials))
    }

    /// The signed HTTP request for `call`, signed at `date`.
    func request(for call: Call, at date: Date = Date()) -> HTTPRequest {
        let path = target.encodedPath(call.key)
        let query = call.query.map { SigV4Signer.uriEncode($0.name) + ($0.value.map { "=" + SigV4Signer.uriEncode($0) } ?? "") }
            .joined(separator: "&")
        let url = URL(string: "\(target.origin.scheme!)://\(target.host)" + path + (query.isEmpty ? "" : "?\(query)"))!
        let headers = call.headers + [("host", target.host), ("x-amz-content-sha256", call.payloadSHA256)]
        let signed = signer.sign(SigV4Signer.Request(method: call.method, encodedPath: path, query: call.query, headers: headers,
                                                     payloadSHA256: call.payloadSHA256), at: date)
        // curl sends its own Host line (the same value): the signed one is not sent twice.
        return HTTPRequest(method: call.method, url: url, headers: headers.filter { $0.name != "host" } + signed, body: call.body,
                           onBodyProgress: call.onBodyProgress)
    }
}

/// A status's error code when the answer has no body to say one (a HEAD, a proxy's page).
enum HTTPStatusWords {
    static func code(for status: Int) -> String {
        switch status {
        case 400: "BadRequest"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "NotFound"
        case 405: "MethodNotAllowed"
        case 409: "Conflict"
        case 412: "PreconditionFailed"
        default: "HTTP\(status)"
        }
    }
}

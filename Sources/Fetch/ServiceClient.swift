import Foundation
import Logging
import QuakeCatalog
import QuakeCommon
import QuakeHTTP

/// One request as the journal remembers it (for `status`: counts, latency, bytes).
struct RequestRecord: Sendable {
    var endpoint: String
    /// HTTP status, or 0 when no answer came (timeout, disconnect).
    var status: Int
    var bytes: Int
    var duration: TimeInterval
}

/// Why the service could not give a usable answer.
enum ServiceError: Error, CustomStringConvertible {
    /// The request matched more events than the service allows (`N matching events exceeds search limit …`);
    /// `matched` is that N, when the message says it.
    case overCap(message: String, matched: Int?)
    /// The service refused the request (a 400 or other client error): retrying will not help.
    case rejected(status: Int, message: String, url: URL)
    /// The service cannot be reached as configured (a TLS certificate that does not verify):
    /// retrying will not help, a person must look.
    case misconfigured(message: String, url: URL)
    /// Every attempt failed with a temporary problem (timeouts, 503, 429, broken bodies).
    case unavailable(attempts: Int, lastProblem: String, url: URL)

    var description: String {
        switch self {
        case .overCap(let message, _): return message
        case .rejected(let status, let message, let url): return "the service refused \(url.redacted) (status \(status)): \(message)"
        case .misconfigured(let message, let url): return "cannot talk to \(url.redacted): \(message)"
        case .unavailable(let attempts, let problem, let url):
            return "the service did not answer \(url.redacted) after \(attempts) attempts; last problem: \(problem)"
        }
    }
}

/// The answer to `count`.
struct CountAnswer: Sendable {
    var count: Int
    var maxAllowed: Int?
}

/// The answer to `query`: the body as received and what it holds.
struct QueryAnswer: Sendable {
    var url: URL
    var status: Int
    var body: Data
    var page: CatalogPage
    var duration: TimeInterval
}

/// Talks to an FDSN event service: builds requests, waits at the gate, retries
/// temporary failures with backoff, and sorts every answer into usable, over the
/// cap, refused or unavailable. It reads `metadata.status` even on HTTP 200.
struct ServiceClient: Sendable {
    let service: URL
    let transport: HTTPTransport
    let gate: RequestGate
    let retry: RetryPolicy
    /// Largest page accepted once decompressed (the transport limits what arrives).
    let maxBodyBytes: Int
    let record: @Sendable (RequestRecord) -> Void
    let logger: Logger

    /// `count?format=geojson` for `parameters`.
    func count(_ parameters: [(String, String)]) async throws -> CountAnswer {
        let url = makeURL("count", parameters)
        return try await withRetries(url: url, endpoint: "count") { answer in
            if let problem = problem(in: answer, url: url) { return .failure(problem) }
            guard let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any] else {
                return .failure(.transient("count answer is not JSON: \(Self.snippet(answer.body))", retryAfter: nil))
            }
            if let metadata = object["metadata"] as? [String: Any], let status = metadata["status"] as? Int, status != 200 {
                return .failure(classify(status: status, message: metadata["error"] as? String ?? "no message", url: url, retryAfter: nil))
            }
            guard let count = Self.plausibleCount(object["count"]) else {
                return .failure(.transient("count answer has no plausible count (a whole number of events from 0 to "
                                           + "\(Format.count(Self.maxPlausibleCount))): \(Self.snippet(answer.body))", retryAfter: nil))
            }
            let maxAllowed = object["maxAllowed"]
            guard maxAllowed == nil || Self.plausibleCount(maxAllowed).map({ $0 > 0 }) == true else {
                return .failure(.transient("count answer has no plausible maxAllowed (a whole number of events from 1 to "
                                           + "\(Format.count(Self.maxPlausibleCount))): \(Self.snippet(answer.body))", retryAfter: nil))
            }
            return .success(CountAnswer(count: count, maxAllowed: Self.plausibleCount(maxAllowed)))
        }
    }

    /// `query?format=geojson` for `parameters`; the page must parse whole.
    func query(_ parameters: [(String, String)]) async throws -> QueryAnswer {
        let url = makeURL("query", parameters)
        return try await withRetries(url: url, endpoint: "query") { answer in
            if let problem = problem(in: answer, url: url) { return .failure(problem) }
            let body: Data
            do {
                body = try Gzip.decompressIfNeeded(answer.body, limit: maxBodyBytes)
            } catch {
                return .failure(.transient("the page does not decompress: \(error)", retryAfter: nil))
            }
            let page = GeoJSONReader.read(body, source: url.redacted)
            if let metadata = page.metadata, let status = metadata.status, status != 200 {
                return .failure(classify(status: status, message: metadata.error ?? metadata.title ?? "no message", url: url, retryAfter: nil))
            }
            if let problem = page.problem {
                return .failure(.transient("damaged page: \(problem)", retryAfter: nil))
            }
            // A lone Feature, or a collection with no metadata, is not an FDSN answer: nothing says
            // what it left out (a real one always has `metadata`, even when it holds no event).
            if page.metadata == nil {
                return .failure(.transient("damaged page: not an FDSN FeatureCollection with its metadata: \(Self.snippet(body))", retryAfter: nil))
            }
            return .success(QueryAnswer(url: url, status: answer.status, body: answer.body, page: page, duration: answer.duration))
        }
    }

    /// More events than ComCat could ever hold (it holds a few million): a count above it
    /// is the service's error, not a plan of millions of windows.
    static let maxPlausibleCount = 100_000_000

    /// A count the service could mean: a whole number from 0 to `maxPlausibleCount`.
    static func plausibleCount(_ member: Any?) -> Int? {
        guard let value = (member as? NSNumber)?.doubleValue, value.isFinite, value == value.rounded(),
              value >= 0, value <= Double(maxPlausibleCount) else { return nil }
        return Int(value)
    }

    func makeURL(_ method: String, _ parameters: [(String, String)]) -> URL {
        var components = URLComponents(url: service.appendingPathComponent(method), resolvingAgainstBaseURL: false)!
        components.queryItems = parameters.map { URLQueryItem(name: $0.0, value: $0.1) }
        // URLComponents leaves '+' alone; the service would read it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// What was wrong with one answer: worth another attempt, or final.
    enum Problem: Error {
        case transient(String, retryAfter: TimeInterval?)
        case fatal(ServiceError)
    }

    func withRetries<T>(url: URL, endpoint: String, _ interpret: (HTTPAnswer) -> Result<T, Problem>) async throws -> T {
        var lastProblem = ""
        var firstAttempt: Date?
        for attempt in 1...max(1, retry.maxAttempts) {
            try Task.checkCancellation()
            if firstAttempt == nil { firstAttempt = Date() }
            let outcome: Result<HTTPAnswer, Error>
            do {
                outcome = .success(try await send(url, endpoint: endpoint))
            } catch let error as ServiceError {
                throw error
            } catch {
                outcome = .failure(error)
            }
            var retryAfter: TimeInterval?
            switch outcome {
            case .success(let answer):
                switch interpret(answer) {
                case .success(let value): return value
                case .failure(let problem):
                    switch problem {
                    case .fatal(let error): throw error
                    case .transient(let message, let after):
                        lastProblem = message
                        retryAfter = after
                    }
                }
            case .failure(let error):
                if error is CancellationError { throw error }
                lastProblem = "\(error)"
            }
            guard attempt < retry.maxAttempts else { break }
            if let retryAfter, retryAfter > retry.maxRetryAfter {
                throw ServiceError.unavailable(attempts: attempt, lastProblem: "\(lastProblem); the service asks to wait "
                    + "\(DurationText.describe(retryAfter)), longer than the \(DurationText.describe(retry.maxRetryAfter)) allowed (--max-retry-after)", url: url)
            }
            let wait = retry.delay(afterAttempt: attempt, retryAfter: retryAfter)
            guard retry.mayRetry(elapsed: Date().timeIntervalSince(firstAttempt ?? Date()), wait: wait, askedByService: retryAfter != nil) else {
                throw ServiceError.unavailable(attempts: attempt, lastProblem: "\(lastProblem); it has tried for "
                    + "longer than \(DurationText.describe(retry.giveUpAfter)) (--give-up-after)", url: url)
            }
            logger.warning("\(endpoint) attempt \(attempt) failed: \(lastProblem); retrying in \(String(format: "%.1f", wait)) s")
            try await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
        throw ServiceError.unavailable(attempts: retry.maxAttempts, lastProblem: lastProblem, url: url)
    }

    /// Redirects followed for one request, at most (the service's own is one: a missing trailing slash).
    static let maxRedirects = 5

    /// GETs `url` through the gate, following redirects within the same service (the same host
    /// and port, or http becoming https on the same host) up to `maxRedirects`, each hop a
    /// request of its own in the budget and the journal. A redirect elsewhere is not followed:
    /// the service is misconfigured, or is not the service, and a person must look; so is a
    /// TLS certificate that does not verify.
    private func send(_ url: URL, endpoint: String) async throws -> HTTPAnswer {
        var target = url
        for hop in 0...Self.maxRedirects {
            await gate.acquire()
            let started = Date()
            let answer: HTTPAnswer
            do {
                answer = try await transport.get(target)
            } catch {
                await gate.release()
                if error is CancellationError { throw error }
                if case TransferFailure.tls? = error as? TransferFailure {
                    throw ServiceError.misconfigured(message: "\(error)", url: url)
                }
                record(RequestRecord(endpoint: endpoint, status: 0, bytes: 0, duration: Date().timeIntervalSince(started)))
                throw error
            }
            await gate.release()
            record(RequestRecord(endpoint: endpoint, status: answer.status, bytes: answer.body.count, duration: answer.duration))
            logger.debug("\(endpoint) \(answer.status) \(answer.body.count) B \(Int(answer.duration * 1000)) ms \(target.redacted)")
            guard (300...399).contains(answer.status), let location = answer.header("Location") else { return answer }
            guard let next = URL(string: location, relativeTo: target)?.absoluteURL, Self.isSameService(next, as: target) else {
                throw ServiceError.misconfigured(message: "it redirects to \(URL(string: location)?.redacted ?? location), not the same "
                    + "service (another host, port or scheme): not followed; if that is the service, pass it as --service", url: url)
            }
            guard hop < Self.maxRedirects else { break }
            logger.debug("\(endpoint) redirected to \(next.redacted)")
            target = next
        }
        throw ServiceError.misconfigured(message: "more than \(Self.maxRedirects) redirects in a row (a redirect loop?)", url: url)
    }

    /// Whether `next` is on the same service as `current`: the same host and port and scheme,
    /// or an upgrade of http to https on the same host at the default port.
    static func isSameService(_ next: URL, as current: URL) -> Bool {
        guard let host = next.host?.lowercased(), host == current.host?.lowercased() else { return false }
        if next.scheme == current.scheme { return next.port == current.port }
        return current.scheme == "http" && next.scheme == "https" && (next.port == nil || next.port == 443)
    }

    /// Problems visible from the HTTP layer alone: statuses, HTML pages from proxies.
    func problem(in answer: HTTPAnswer, url: URL) -> Problem? {
        let retryAfter = RetryPolicy.retryAfter(answer.header("Retry-After"))
        let isHTML = answer.header("Content-Type")?.lowercased().contains("text/html") == true
            || Self.snippet(answer.body).lowercased().hasPrefix("<")
        if answer.status == 200 && !isHTML { return nil }
        if isHTML && (answer.status == 200 || answer.status >= 500) {
            return .transient("an HTML page with status \(answer.status) instead of data (a proxy error?): \(Self.snippet(answer.body))",
                              retryAfter: retryAfter)
        }
        return classify(status: answer.status, message: Self.serviceMessage(answer.body), url: url, retryAfter: retryAfter)
    }

    func classify(status: Int, message: String, url: URL, retryAfter: TimeInterval?) -> Problem {
        if message.contains("exceeds search limit") { return .fatal(.overCap(message: message, matched: Self.matchedCount(message))) }
        if status == 429 || status == 408 || status >= 500 {
            return .transient("status \(status): \(message)", retryAfter: retryAfter)
        }
        return .fatal(.rejected(status: status, message: message, url: url))
    }

    /// N of the service's `N matching events exceeds search limit of 20000…`, if the message starts so.
    static func matchedCount(_ message: String) -> Int? {
        let words = message.split(separator: " ", maxSplits: 3)
        guard words.count >= 3, words[1] == "matching", words[2] == "events", let n = Int(words[0]), n > 0 else { return nil }
        return n
    }

    /// The message paragraph of the service's plain-text error layout
    /// (`Error 400: Bad Request` / blank / message / …), else the start of the body.
    static func serviceMessage(_ body: Data) -> String {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let paragraphs = text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if paragraphs.count > 1, paragraphs[0].hasPrefix("Error "), !paragraphs[1].isEmpty { return paragraphs[1] }
        let start = snippet(body)
        return start.isEmpty ? "an empty answer" : start
    }

    static func snippet(_ body: Data) -> String {
        let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.replacingOccurrences(of: "\n", with: " ")
    }
}

import Foundation
import QuakeCommon
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer as received.
struct HTTPAnswer: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
    var duration: TimeInterval

    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Why a request got no usable answer.
enum TransferFailure: Error, CustomStringConvertible {
    case connectTimeout(TimeInterval)
    case readTimeout(TimeInterval)
    case deadline(TimeInterval)
    case tooLarge(Int)
    /// The TLS handshake failed (an untrusted or expired certificate): a configuration
    /// problem that retrying cannot fix.
    case tls(String)
    case broken(String)

    var description: String {
        switch self {
        case .connectTimeout(let s): return "no response within \(Self.seconds(s)) (connect timeout)"
        case .readTimeout(let s): return "no data for \(Self.seconds(s)) (read timeout)"
        case .deadline(let s): return "the answer took longer than \(Self.seconds(s)) in all (request deadline)"
        case .tooLarge(let limit): return "the answer is larger than \(Format.bytes(limit)) (body limit)"
        case .tls(let message): return "the TLS connection failed (\(message)); check the --service URL and the machine's CA certificates"
        case .broken(let message): return "connection failed: \(message)"
        }
    }

    private static func seconds(_ s: TimeInterval) -> String { String(format: "%g s", s) }
}

/// HTTP GET over Foundation's URLSession with three timeouts and a size limit:
/// `connectTimeout` until the response headers arrive, `readTimeout` of silence
/// while the body arrives, `deadline` for the whole answer, and at most
/// `maxBodyBytes` of body (URLSession's own request timeout is an idle timeout,
/// so it enforces the second; watchdogs enforce the first and third; the body
/// is counted as it arrives, so an endless one is cut, not buffered).
final class HTTPTransport: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var session: URLSession!
    private let delegateQueue = BoundedOperationQueue(capacity: 64)
    private var transfers: [Int: Transfer] = [:]
    private let connectTimeout: TimeInterval
    private let readTimeout: TimeInterval
    private let deadline: TimeInterval
    private let maxBodyBytes: Int

    private final class Transfer {
        let continuation: CheckedContinuation<HTTPAnswer, Error>
        let started = Date()
        var response: HTTPURLResponse?
        var body = Data()
        var failure: TransferFailure?

        init(continuation: CheckedContinuation<HTTPAnswer, Error>) { self.continuation = continuation }
    }

    init(connectTimeout: TimeInterval, readTimeout: TimeInterval, deadline: TimeInterval, maxBodyBytes: Int) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.deadline = deadline
        self.maxBodyBytes = maxBodyBytes
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = readTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpAdditionalHeaders = ["User-Agent": "quake-bake (+https://github.com/quake-bake)"]
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
    }

    /// URLSession's codes for a failed TLS handshake or certificate check.
    private static let tlsErrors: Set<Int> = [
        NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateUntrusted,
        NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
        NSURLErrorClientCertificateRejected, NSURLErrorClientCertificateRequired,
    ]

    /// Whether `error` is a failed TLS handshake or certificate check. On Linux, URLSession
    /// (libcurl underneath) reports these as code -1 with curl's words ("SSL certificate
    /// problem: self-signed certificate", "SSL connect error"), so the words count too.
    private static func isTLSFailure(_ error: NSError) -> Bool {
        if tlsErrors.contains(error.code) { return true }
        let words = error.localizedDescription
        return error.code == NSURLErrorUnknown && (words.contains("SSL") || words.contains("certificate"))
    }

    /// Ends the session; in-flight requests fail.
    func close() {
        delegateQueue.lifting { session.invalidateAndCancel() }
    }

    /// GETs `url`, asking for gzip.
    func get(_ url: URL) async throws -> HTTPAnswer {
        var request = URLRequest(url: url)
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: request)
        let identifier = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { transfers[identifier] = Transfer(continuation: continuation) }
                task.resume()
                // Dispatch timers, not sleeping tasks: a watchdog must fire even when every thread of
                // Swift's cooperative pool is busy (under load, a sleeping task woke after the
                // 30 s read timeout instead of the 1 s connect timeout it was set for).
                let timeout = connectTimeout, deadline = deadline
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
                    self?.expire(task, .connectTimeout(timeout)) { $0.response == nil }
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
                    self?.expire(task, .deadline(deadline)) { _ in true }
                }
            }
        } onCancel: {
            cancel(task)
        }
    }

    /// Fails `task` with `failure` when it is still running and `applies` to its transfer.
    private func expire(_ task: URLSessionTask, _ failure: TransferFailure, when applies: (Transfer) -> Bool) {
        let expired = lock.withLock { () -> Bool in
            guard let transfer = transfers[task.taskIdentifier], transfer.failure == nil, applies(transfer) else { return false }
            transfer.failure = failure
            return true
        }
        if expired { cancel(task) }
    }

    /// Cancels `task` without waiting on a reader that waits for room in the delegate queue
    /// (see `BoundedOperationQueue`).
    private func cancel(_ task: URLSessionTask) {
        delegateQueue.lifting { task.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    /// Redirects are not followed here: the 3xx answer goes back to `ServiceClient`, which follows
    /// it (or not) as a request of its own, counted in the budget and the journal.
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = maxBodyBytes
        let overLimit = lock.withLock { () -> Bool in
            guard let transfer = transfers[dataTask.taskIdentifier], transfer.failure == nil else { return false }
            guard transfer.body.count + data.count <= limit else {
                transfer.failure = .tooLarge(limit)
                transfer.body = Data()
                return true
            }
            transfer.body.append(data)
            return false
        }
        // Not from this callback: cancel waits for URLSession's reading thread, and the delegate
        // queue runs one callback at a time.
        if overLimit { DispatchQueue.global().async { [self] in cancel(dataTask) } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = transfer.failure {
            transfer.continuation.resume(throwing: failure)
        } else if let error {
            let nsError = error as NSError
            if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
                transfer.continuation.resume(throwing: TransferFailure.readTimeout(readTimeout))
            } else if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled {
                transfer.continuation.resume(throwing: CancellationError())
            } else if nsError.domain == NSURLErrorDomain && Self.isTLSFailure(nsError) {
                transfer.continuation.resume(throwing: TransferFailure.tls("\(nsError.localizedDescription), code \(nsError.code)"))
            } else if transfer.response == nil && nsError.localizedDescription == "Out of memory" {
                // libcurl (under URLSession on Linux) says so of a header line over its 100 KB limit.
                transfer.continuation.resume(throwing: TransferFailure.broken(
                    "the answer's headers are too long for libcurl, which says \"Out of memory\" (code \(nsError.code))"))
            } else {
                let received = transfer.body.isEmpty ? "" : " after \(transfer.body.count) bytes"
                transfer.continuation.resume(throwing: TransferFailure.broken("\(nsError.localizedDescription) (code \(nsError.code))\(received)"))
            }
        } else if let response = transfer.response {
            var headers: [String: String] = [:]
            for (key, value) in response.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key] = value }
            }
            transfer.continuation.resume(returning: HTTPAnswer(status: response.statusCode, headers: headers, body: transfer.body,
                                                               duration: Date().timeIntervalSince(transfer.started)))
        } else {
            transfer.continuation.resume(throwing: TransferFailure.broken("no HTTP response"))
        }
    }
}

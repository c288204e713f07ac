import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A publication over HTTP(S): a CDN, an object store's public base, a web server.
///
/// One request at a time, streamed to its file as it arrives (memory stays a few pieces
/// whatever the size); a download that stops half-way goes on from where it stopped with a
/// `Range` request (RFC 9110 14.2), and starts over when the server answers with the whole
/// object instead. Bodies are taken as stored (`Accept-Encoding: identity`), and never past the
/// size the pointer gives. Call ``close()`` when done: the session holds this object until then.
final class HTTPObjectSource: NSObject, ObjectSource, URLSessionDataDelegate, @unchecked Sendable {
    let base: URL
    private let idleTimeout: TimeInterval
    private var session: URLSession!
    private let lock = NSLock()
    /// The request in flight, by its task's identifier (a late callback of an earlier task finds nothing).
    private var requests: [Int: Request] = [:]

    /// The request in flight: what to do with its answer, and how it ended.
    private final class Request {
        let accept: (HTTPURLResponse) throws -> Void
        let body: (Data) throws -> Void
        var failure: Error?
        let done = DispatchSemaphore(value: 0)

        init(accept: @escaping (HTTPURLResponse) throws -> Void, body: @escaping (Data) throws -> Void) {
            self.accept = accept
            self.body = body
        }
    }

    init(base: URL, idleTimeout: TimeInterval) {
        self.base = base
        self.idleTimeout = idleTimeout
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = idleTimeout
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Ends the session (it holds its delegate, this object, until then).
    func close() {
        session.finishTasksAndInvalidate()
    }

    var shown: String { Self.redacted(base) }

    /// `url` without user, password or query (a signed URL's signature stays out of messages).
    static func redacted(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "the source" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? "the source"
    }

    private func url(_ key: String) -> URL {
        var url = base
        for component in key.split(separator: "/") { url.appendPathComponent(String(component)) }
        if let query = URLComponents(url: base, resolvingAgainstBaseURL: false)?.percentEncodedQuery,
           var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            parts.percentEncodedQuery = query  // a base with a token in its query keeps it for every key
            url = parts.url ?? url
        }
        return url
    }

    func read(_ key: String, limit: Int) throws -> Data {
        var data = Data()
        let shown = Self.redacted(url(key))
        try perform(key, headers: ["Cache-Control": "no-cache"], accept: { response in
            try Self.check(response, shown: shown, expecting: [200])
            if response.expectedContentLength > Int64(limit) {
                throw TransferError(kind: .refused, description: "\(shown) has \(response.expectedContentLength) bytes, more than \(limit)")
            }
        }, body: { piece in
            guard data.count + piece.count <= limit else { throw TransferError(kind: .refused, description: "\(shown) has more than \(limit) bytes") }
            data.append(piece)
        })
        return data
    }

    func download(_ key: String, into file: FileHandle, from offset: Int64, expected: Int64,
                  received: @escaping (Int64) -> Void) throws -> Int64 {
        let shown = Self.redacted(url(key))
        var held = offset
        try perform(key, headers: offset > 0 ? ["Range": "bytes=\(offset)-"] : [:], accept: { response in
            try Self.check(response, shown: shown, expecting: offset > 0 ? [200, 206] : [200])
            if response.statusCode == 206 {
                let range = Self.contentRange(response)
                guard range?.start == offset, range?.total == nil || range?.total == expected else {
                    throw TransferError(kind: .refused, description: "\(shown) answered the range from \(offset) with another one")
                }
            } else if offset > 0 {  // the whole object instead of the rest: start over
                try file.truncate(atOffset: 0)
                held = 0
            }
            let length = response.expectedContentLength
            if length >= 0 && held + length != expected {
                throw TransferError(kind: .refused, description: "\(shown) has \(held + length) bytes, the pointer says \(expected)")
            }
        }, body: { piece in
            guard held + Int64(piece.count) <= expected else {
                throw TransferError(kind: .refused, description: "\(shown) is longer than the \(expected) bytes the pointer gives")
            }
            try file.write(contentsOf: piece)
            held += Int64(piece.count)
            received(Int64(piece.count))
        })
        return held
    }

    /// Runs one GET of `key` and waits for its end.
    private func perform(_ key: String, headers: [String: String], accept: @escaping (HTTPURLResponse) throws -> Void,
                         body: @escaping (Data) throws -> Void) throws {
        var request = URLRequest(url: url(key), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: idleTimeout)
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let state = Request(accept: accept, body: body)
        let task = session.dataTask(with: request)
        lock.withLock { requests[task.taskIdentifier] = state }
        task.resume()
        state.done.wait()
        if let failure = state.failure { throw failure }
    }

    private func request(of task: URLSessionTask) -> Request? { lock.withLock { requests[task.taskIdentifier] } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let state = request(of: dataTask) else { return completionHandler(.cancel) }
        do {
            guard let http = response as? HTTPURLResponse else { throw TransferError(kind: .refused, description: "not an HTTP answer") }
            try state.accept(http)
            completionHandler(.allow)
        } catch {
            state.failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = request(of: dataTask), state.failure == nil else { return }
        do {
            try state.body(data)
        } catch {
            state.failure = error
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let state = lock.withLock({ requests.removeValue(forKey: task.taskIdentifier) }) else { return }
        if state.failure == nil, let error {
            let shown = task.originalRequest?.url.map(Self.redacted) ?? "the source"
            state.failure = TransferError(kind: .temporary, description: "\(shown): \((error as NSError).localizedDescription)")
        }
        state.done.signal()
    }

    /// Throws unless `response` has one of the `expecting` statuses, saying whether trying again may help.
    private static func check(_ response: HTTPURLResponse, shown: String, expecting: Set<Int>) throws {
        let status = response.statusCode
        guard !expecting.contains(status) else { return }
        let kind: TransferError.Kind = switch status {
        case 404, 403, 410: .missing
        case 408, 429, 500...599: .temporary
        default: .refused
        }
        throw TransferError(kind: kind, description: "\(shown): HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))")
    }

    /// `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
    private static func contentRange(_ response: HTTPURLResponse) -> (start: Int64, total: Int64?)? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range"), value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let start = parts[0].split(separator: "-").first.flatMap({ Int64($0) }) else { return nil }
        return (start, Int64(parts[1]))
    }
}

import CCurl
import Foundation

/// One request on its way through `CurlLoop`: its easy handle, the callbacks curl calls on
/// the loop's thread (the answer's header lines, its body, the request's body), and the
/// clocks its timeouts are read from. Everything but `finish` runs on the loop's thread.
final class CurlTransfer: @unchecked Sendable {
    private let request: HTTPRequest
    private let destination: ResponseDestination
    private let timeouts: HTTPTimeouts
    private let userAgent: String
    var continuation: CheckedContinuation<HTTPResponse, Error>?
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private var bodyFile: Int32 = -1
    private var answerFile: Int32 = -1

    private let started = CurlTransfer.clock()
    private var lastActivity = CurlTransfer.clock()
    private var bodySentAt: Double?
    private var sent: Int64 = 0
    private var headers = HeaderLines(maxLines: HTTPClient.maxHeaderLines, maxBytes: HTTPClient.maxHeaderBytes)
    private var headersAt: Double?
    private var body = Data()
    private var failure: TransferFailure?
    private let finished = NSLock()
    private var done = false

    init(request: HTTPRequest, destination: ResponseDestination, timeouts: HTTPTimeouts, userAgent: String) {
        self.request = request
        self.destination = destination
        self.timeouts = timeouts
        self.userAgent = userAgent
        errorBuffer.initialize(to: 0)
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        if bodyFile >= 0 { Foundation.close(bodyFile) }
        if answerFile >= 0 { Foundation.close(answerFile) }
    }

    /// Seconds on a clock that only goes forward.
    static func clock() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Makes the easy handle for the request; throws when a file cannot be opened.
    func prepare() throws -> UnsafeMutableRawPointer {
        guard let easy = curl_easy_init() else { throw TransferFailure.broken("libcurl could not make a handle") }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        qb_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString)
        qb_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        qb_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        qb_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        qb_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        qb_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(timeouts.connect * 1000))
        qb_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        qb_easy_setopt_string(easy, CURLOPT_USERAGENT, userAgent)
        if request.acceptGzip { qb_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "gzip") }
        qb_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION, { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().headerLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
        })
        qb_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        qb_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION, { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().received(UnsafeRawBufferPointer(start: buffer, count: size * count))
        })
        qb_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        if case .file(let url) = destination {
            answerFile = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard answerFile >= 0 else { throw TransferFailure.broken("cannot write \(url.path): \(String(cString: strerror(errno)))") }
        }
        // Curl would send `Expect: 100-continue` before a big body and wait for an answer.
        var lines = request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"]
        switch request.method {
        case "GET": break
        case "HEAD": qb_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        default:
            qb_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
            if request.body.count > 0 || ["PUT", "POST"].contains(request.method) {
                try prepareBody(easy, context: context)
            } else if !request.headers.contains(where: { $0.name.lowercased() == "content-length" }) {
                lines.append("Content-Length: 0")
            }
        }
        if request.body.count == 0 { bodySentAt = started }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        qb_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
        return easy
    }

    /// Sends the body through curl's read callback, from memory or from the file region.
    private func prepareBody(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) throws {
        if case .file(let url, _, _) = request.body {
            bodyFile = open(url.path, O_RDONLY | O_CLOEXEC)
            guard bodyFile >= 0 else { throw TransferFailure.broken("cannot read \(url.path): \(String(cString: strerror(errno)))") }
        }
        qb_easy_setopt_long(easy, CURLOPT_UPLOAD, 1)
        qb_easy_setopt_off(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(request.body.count))
        qb_easy_setopt_callback(easy, CURLOPT_READFUNCTION, { buffer, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().nextBodyBytes(into: buffer!, capacity: size * count)
        })
        qb_easy_setopt_pointer(easy, CURLOPT_READDATA, context)
    }

    private func headerLine(_ line: UnsafeRawBufferPointer) -> Int {
        lastActivity = Self.clock()
        do {
            if try headers.take(line) { headersAt = lastActivity }
            return line.count
        } catch {
            failure = error
            return 0
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = Self.clock()
        switch destination {
        case .memory(let limit):
            guard body.count + bytes.count <= limit else {
                failure = .tooLarge(limit)
                body = Data()
                return 0
            }
            body.append(contentsOf: bytes)
        case .file(let url):
            var offset = 0
            while offset < bytes.count {
                let written = write(answerFile, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failure = .broken("cannot write \(url.path): \(String(cString: strerror(errno)))")
                    return 0
                }
                offset += written
            }
        }
        return bytes.count
    }

    private func nextBodyBytes(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let wanted = Int(min(Int64(capacity), request.body.count - sent))
        guard wanted > 0 else { return 0 }
        switch request.body {
        case .none: return 0
        case .bytes(let data):
            data.withUnsafeBytes { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + Int(sent), byteCount: wanted)
            }
        case .file(let url, let offset, _):
            var got = 0
            repeat { got = pread(bodyFile, buffer, wanted, off_t(offset + sent)) } while got < 0 && errno == EINTR
            guard got > 0 else {
                failure = .broken("cannot read \(url.path) at byte \(offset + sent): "
                                  + (got == 0 ? "the file ended early" : String(cString: strerror(errno))))
                return Int(CURL_READFUNC_ABORT)
            }
            return advance(got)
        }
        return advance(wanted)
    }

    private func advance(_ count: Int) -> Int {
        sent += Int64(count)
        lastActivity = Self.clock()
        if sent == request.body.count { bodySentAt = lastActivity }
        request.onBodyProgress?(sent)
        return count
    }

    /// What the loop does next with this transfer.
    enum Check {
        case expired(TransferFailure)
        case checkIn(Double)
    }

    /// Whether a timeout has passed at `now`, else how soon one could.
    func check(at now: Double) -> Check {
        var limits = [(started + timeouts.deadline, TransferFailure.deadline(timeouts.deadline))]
        if headersAt != nil {
            limits.append((lastActivity + timeouts.read, .readTimeout(timeouts.read)))
        } else if let bodySentAt {
            limits.append((bodySentAt + timeouts.connect, .connectTimeout(timeouts.connect)))
        } else if sent == 0 {
            limits.append((started + timeouts.connect, .connectTimeout(timeouts.connect)))
        } else {
            limits.append((lastActivity + timeouts.read, .readTimeout(timeouts.read)))
        }
        if let (_, failure) = limits.first(where: { now >= $0.0 }) { return .expired(failure) }
        return .checkIn(limits.map { $0.0 - now }.min()!)
    }

    /// The answer, or why there is none, once curl says the transfer ended with `code`.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, Error> {
        if let failure { return .failure(failure) }
        guard code == CURLE_OK else { return .failure(CurlFailure.classify(code, detail: String(cString: errorBuffer), headersDone: headersAt != nil)) }
        guard headersAt != nil, headers.status > 0 else { return .failure(TransferFailure.broken("no HTTP response")) }
        return .success(HTTPResponse(status: headers.status, headers: headers.lines, body: body, duration: Self.clock() - started))
    }

    /// Resumes the caller, once.
    func finish(_ result: Result<HTTPResponse, Error>) {
        let first = finished.withLock { () -> Bool in
            defer { done = true }
            return !done
        }
        guard first, let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }
}

import Foundation

/// A small HTTP/1.1 server on a free loopback port, one request per connection, answering
/// what `answer` says for each request (for tests of an HTTP client's own behaviour: limits,
/// statuses, retries). `answer` returning `nil` holds the connection without reading more.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// One request as received.
    public struct Request: Sendable {
        public var method: String
        /// The request target (path and query).
        public var target: String
        public var headers: [String]
        public var body: Data
    }

    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var closed = false
    private let answer: @Sendable (Request) -> Data?
    /// Whether `answer` is asked before the body is read (so that a request it holds is not read at all).
    private let beforeBody: @Sendable (Request) -> Bool

    /// `holding`: requests held as soon as their headers arrived (nothing of the body read).
    public init(holding: @escaping @Sendable (Request) -> Bool = { _ in false }, answer: @escaping @Sendable (Request) -> Data?) throws {
        let (fd, port) = try LoopbackSocket.listening(backlog: 16)
        listener = fd
        self.port = port
        self.answer = answer
        beforeBody = holding
        Thread { [self] in
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                // Once closed, the number `fd` may be another socket's: take nothing more from it.
                guard lock.withLock({ () -> Bool in
                    if !closed { connections.append(connection) }
                    return !closed
                }) else {
                    Glibc.close(connection)
                    return
                }
                Thread { [self] in serve(connection) }.start()
            }
        }.start()
    }

    deinit { close() }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Stops listening and closes every connection.
    public func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.withLock {
            for c in connections { shutdown(c, Int32(SHUT_RDWR)); Glibc.close(c) }
            connections = []
        }
    }

    /// An answer's bytes: a status line, `headers`, `Content-Length` and `Connection: close`, the body.
    public static func response(_ status: String, headers: [String] = [], body: Data = Data()) -> Data {
        Data((["HTTP/1.1 \(status)", "Connection: close"] + headers + ["Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n").utf8) + body
    }

    private func serve(_ connection: Int32) {
        let end = Data("\r\n\r\n".utf8)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.range(of: end) == nil {
            let got = read(connection, &buffer, buffer.count)
            guard got > 0 else { return }
            received.append(contentsOf: buffer[..<got])
        }
        let split = received.range(of: end)!
        let lines = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines[0].split(separator: " ")
        guard words.count >= 2 else { return }
        var request = Request(method: String(words[0]), target: String(words[1]), headers: Array(lines.dropFirst()), body: Data(received[split.upperBound...]))
        if beforeBody(request) { return }
        let length = request.headers.first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        while request.body.count < length {
            let got = read(connection, &buffer, buffer.count)
            guard got > 0 else { return }
            request.body.append(contentsOf: buffer[..<got])
        }
        guard let out = answer(request) else { return }
        out.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(connection, bytes.baseAddress! + offset, bytes.count - offset)
                guard written > 0 else { return }
                offset += written
            }
        }
        shutdown(connection, Int32(SHUT_WR))
    }
}

import Foundation
import QuakeHTTP
import Testing

/// QuakeHTTP's client against a loopback server that answers as told: header lines counted
/// and cut off past the limits, redirects answered not followed, bodies streamed from a file
/// region and into a file, the body limit, and the read timeout of an upload the server
/// stops taking.
@Suite struct HTTPClientTests {
    static let client = HTTPClient(timeouts: HTTPTimeouts(connect: 10, read: 10, deadline: 60))

    @Test func headerLinesPastTheLimitsEndTheAnswerAtOnce() async throws {
        let server = try ScriptedServer()
        defer { server.close() }
        for (path, words) in [("/lines/50000", "more than 256 header lines"), ("/long/70000", "more than 64.0 KB of header lines"),
                              ("/long/200000", "a line longer than libcurl takes")] {
            do {
                _ = try await Self.client.send(HTTPRequest(url: server.url(path)))
                Issue.record("\(path): an answer came")
            } catch let failure as TransferFailure {
                guard case .headersTooLong = failure else { Issue.record("\(path): \(failure)"); continue }
                #expect("\(failure)".contains(words), "\(path): \(failure)")
            }
        }
        let fine = try await Self.client.send(HTTPRequest(url: server.url("/lines/200")))
        #expect(fine.status == 200 && fine.headers.count >= 200)
    }

    @Test func aRedirectIsAnAnswer() async throws {
        let server = try ScriptedServer()
        defer { server.close() }
        let answer = try await Self.client.send(HTTPRequest(url: server.url("/redirect")))
        #expect(answer.status == 302 && answer.header("location") == "/elsewhere")
    }

    @Test func bodiesGoFromAFileRegionAndIntoAFile() async throws {
        let server = try ScriptedServer()
        defer { server.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("http-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source"), echo = directory.appendingPathComponent("echo")
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        try bytes.write(to: source)
        let sent = ProgressBox()
        let answer = try await Self.client.send(HTTPRequest(method: "PUT", url: server.url("/echo"),
                                                            body: .file(source, offset: 1000, length: 2_000_000),
                                                            onBodyProgress: { sent.set($0) }), into: .file(echo))
        #expect(answer.status == 200 && answer.body.isEmpty)
        #expect(try Data(contentsOf: echo) == bytes[1000..<2_001_000])
        #expect(sent.value == 2_000_000)
        do {
            _ = try await Self.client.send(HTTPRequest(method: "PUT", url: server.url("/echo"), body: .bytes(bytes)), into: .memory(limit: 1 << 20))
            Issue.record("a body over the limit came")
        } catch let failure as TransferFailure {
            guard case .tooLarge(1 << 20) = failure else { Issue.record("\(failure)"); return }
        }
    }

    @Test func anUploadTheServerStopsTakingMeetsTheReadTimeout() async throws {
        let server = try ScriptedServer()
        defer { server.close() }
        let client = HTTPClient(timeouts: HTTPTimeouts(connect: 30, read: 1, deadline: 60))
        defer { client.close() }
        let started = Date()
        do {
            _ = try await client.send(HTTPRequest(method: "PUT", url: server.url("/stall"), body: .bytes(Data(count: 64 << 20))))
            Issue.record("an answer came")
        } catch let failure as TransferFailure {
            guard case .readTimeout(1) = failure else { Issue.record("\(failure)"); return }
        }
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    final class ProgressBox: @unchecked Sendable {
        private let lock = NSLock()
        private var sent: Int64 = 0
        func set(_ value: Int64) { lock.withLock { sent = value } }
        var value: Int64 { lock.withLock { sent } }
    }
}

/// A loopback HTTP/1.1 server for these tests, one request per connection: `/lines/N` answers
/// with N header lines, `/long/N` with one header line of N bytes, `/redirect` a 302,
/// `/echo` the request's body, `/stall` reads nothing and holds the connection.
final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                lock.withLock { connections.append(connection) }
                Thread { [self] in serve(connection) }.start()
            }
        }.start()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        lock.withLock { for c in connections { shutdown(c, Int32(SHUT_RDWR)); Glibc.close(c) } }
    }

    private func serve(_ connection: Int32) {
        var request = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while request.range(of: Data("\r\n\r\n".utf8)) == nil {
            let got = read(connection, &buffer, buffer.count)
            guard got > 0 else { return }
            request.append(contentsOf: buffer[..<got])
        }
        let head = String(decoding: request[..<request.range(of: Data("\r\n\r\n".utf8))!.lowerBound], as: UTF8.self)
        let path = head.split(separator: " ")[1]
        let lines = head.split(separator: "\r\n")
        let length = lines.first { $0.lowercased().hasPrefix("content-length:") }.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        if path == "/stall" { return }  // holds the connection and reads nothing more
        var body = request[request.range(of: Data("\r\n\r\n".utf8))!.upperBound...]
        while body.count < length {
            let got = read(connection, &buffer, buffer.count)
            guard got > 0 else { return }
            body.append(contentsOf: buffer[..<got])
        }
        var answer = "HTTP/1.1 200 OK\r\nConnection: close\r\n"
        var payload = Data()
        let parts = path.split(separator: "/")
        switch parts.first {
        case "lines": answer += (0..<Int(parts[1])!).map { "X-Line-\($0): a\r\n" }.joined()
        case "long": answer += "X-Long: \(String(repeating: "a", count: Int(parts[1])!))\r\n"
        case "redirect": answer = "HTTP/1.1 302 Found\r\nConnection: close\r\nLocation: /elsewhere\r\n"
        default: payload = Data(body)
        }
        answer += "Content-Length: \(payload.count)\r\n\r\n"
        let out = Data(answer.utf8) + payload
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

import Foundation
import QuakeHTTP
import Testing
import TestSupport

/// QuakeHTTP's client against a loopback server that answers as told: header lines counted
/// and cut off past the limits, redirects answered not followed, bodies streamed from a file
/// region and into a file, the body limit, and the read timeout of an upload the server
/// stops taking.
@Suite struct HTTPClientTests {
    static let client = HTTPClient(timeouts: HTTPTimeouts(connect: 10, read: 10, deadline: 60))

    /// `/lines/N` answers with N header lines, `/long/N` with one header line of N bytes,
    /// `/redirect` a 302, `/echo` the request's body; `/stall` is held, its body not read.
    static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(holding: { $0.target == "/stall" }) { request in
            let parts = request.target.split(separator: "/")
            switch parts.first {
            case "lines": return LoopbackHTTPServer.response("200 OK", headers: (0..<Int(parts[1])!).map { "X-Line-\($0): a" })
            case "long": return LoopbackHTTPServer.response("200 OK", headers: ["X-Long: " + String(repeating: "a", count: Int(parts[1])!)])
            case "redirect": return LoopbackHTTPServer.response("302 Found", headers: ["Location: /elsewhere"])
            default: return LoopbackHTTPServer.response("200 OK", body: request.body)
            }
        }
    }

    @Test func headerLinesPastTheLimitsEndTheAnswerAtOnce() async throws {
        let server = try Self.server()
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
        let server = try Self.server()
        defer { server.close() }
        let answer = try await Self.client.send(HTTPRequest(url: server.url("/redirect")))
        #expect(answer.status == 302 && answer.header("location") == "/elsewhere")
    }

    @Test func bodiesGoFromAFileRegionAndIntoAFile() async throws {
        let server = try Self.server()
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
        let server = try Self.server()
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

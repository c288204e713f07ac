import Foundation
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `quake-bake serve` under attack (issue 46), over real sockets to the real process: request
/// heads past a few kilobytes are refused (414, 431) as they arrive, idle and slow clients are
/// timed out, a thousand idle sockets and two 128 KB URLs leave a normal request answered
/// within a second, even when the descriptors run out (EMFILE).
@Suite struct ServeAttackTests {
    /// A small bundle (October 2025, zooms 0–4) in a workspace under `directory`; its path.
    static func workspace(in directory: TemporaryDirectory) async throws -> String {
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("feed-2.5_month-2025-10.geojson.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "4"]).checked()
        return root
    }

    /// Sends `bytes` on a thread of its own while this one reads the answer (the server stops
    /// taking bytes once it refuses; reading meanwhile keeps its answer from being lost to a reset).
    static func attack(port: Int, _ bytes: [UInt8]) throws -> Data {
        let socket = try RawSocket(port: port)
        let sender = Thread { socket.send(bytes) }
        sender.start()
        return socket.readToEnd(silence: 30).data
    }

    /// A GET of `path` on a connection of its own; the whole answer.
    static func get(port: Int, _ path: String, headers: String = "") throws -> Data {
        let socket = try RawSocket(port: port)
        socket.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\r\n")
        return socket.readToEnd(silence: 30).data
    }

    @Test func requestHeadsPastAFewKilobytesAreRefusedAsTheyArrive() async throws {
        let directory = TemporaryDirectory("serve-heads")
        let server = try ServeProcess(["--workspace", try await Self.workspace(in: directory), "--port", "0"], log: directory.path("serve.log"))
        defer { server.stop() }
        let before = server.residentKilobytes
        let line = "GET / HTTP/1.1\r\nHost: x\r\n"
        let cases: [(String, String, Int)] = [
            ("a 1 MB URL", "GET /" + String(repeating: "a", count: 1 << 20) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
            ("8 MB of short headers", line + String(repeating: "X-A: b\r\n", count: 1 << 20) + "\r\n", 431),
            ("a header line of 20 KB", line + "X-Long: " + String(repeating: "b", count: 20_000) + "\r\n\r\n", 431),
            ("nine headers of 4 KB (a 36 KB head)", line + String(repeating: "X-" + String(repeating: "c", count: 4_000) + ": d\r\n", count: 9) + "\r\n", 431),
            ("64 KB of blank lines before a request", String(repeating: "\r\n", count: 32 << 10) + line + "\r\n", 431),
            ("64 KB of CRs in a request line (malformed at the first: the decoder says 400)", "GET /" + String(repeating: "\r", count: 64 << 10) + " HTTP/1.1\r\n\r\n", 400),
            ("a body on a GET", line + "Content-Length: 5\r\n\r\nhello", 413),
        ]
        for (name, request, expected) in cases {
            let answer = try Self.attack(port: server.port, Array(request.utf8))
            #expect(RawSocket.status(of: answer) == expected, "\(name): \(String(decoding: answer.prefix(200), as: UTF8.self))")
            #expect(RawSocket.header("Connection", of: answer) == "close", "\(name)")
        }
        // Nothing of it was kept: the process is about as big as before, and still answers.
        #expect(server.residentKilobytes - before < 20_000, "grew from \(before) KB to \(server.residentKilobytes) KB")
        #expect(RawSocket.status(of: try Self.get(port: server.port, "/tiles/0/0/0.pbf")) == 200)
        // A head just within the limits is a request like any other.
        let full = try Self.get(port: server.port, "/style.json", headers: String(repeating: "X-Pad: " + String(repeating: "e", count: 200) + "\r\n", count: 90))
        #expect(RawSocket.status(of: full) == 200)
    }

    /// With `--timeout 1`: a connection that sends nothing is closed, and one that sends its
    /// head a byte at a time (each byte well within the timeout of the last) gets 408 and is
    /// closed: bytes do not extend the time a head has.
    @Test func idleAndSlowConnectionsAreTimedOut() async throws {
        let directory = TemporaryDirectory("serve-slow")
        let server = try ServeProcess(["--workspace", try await Self.workspace(in: directory), "--port", "0", "--timeout", "1"], log: directory.path("serve.log"))
        defer { server.stop() }

        let idle = try RawSocket(port: server.port)
        let ended = idle.readToEnd(silence: 60)
        #expect(ended.closed && ended.data.isEmpty, "an idle connection is closed without a word")

        let slow = try RawSocket(port: server.port)
        let head = Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8) + Array(repeating: Array("X-Slow: y\r\n".utf8), count: 1_000).joined()
        var sent = 0
        // One byte each time 50 ms pass without an answer: a head of 11 KB would take 9 minutes.
        while sent < head.count && !slow.readable(within: 0.05) {
            slow.send([head[sent]])
            sent += 1
        }
        let answer = slow.readToEnd(silence: 60)
        #expect(RawSocket.status(of: answer.data) == 408 && answer.closed, "\(String(decoding: answer.data.prefix(200), as: UTF8.self))")
        #expect(sent < head.count / 4, "\(sent) of \(head.count) bytes were taken before the 408")

        // Keep-alive: a connection idle after its answer is closed as well.
        let kept = try RawSocket(port: server.port)
        kept.send("GET /tiles/0/0/0.pbf HTTP/1.1\r\nHost: x\r\n\r\n")
        let afterAnswer = kept.readToEnd(silence: 60)
        #expect(RawSocket.status(of: afterAnswer.data) == 200 && afterAnswer.closed)
    }

    /// How `serve` is started for the flood: with the descriptors it has; under `ulimit -n 64`
    /// (its connection limit then comes from the descriptors); under `ulimit -n 64` with
    /// `--max-connections 1000`, so that `accept` runs out of descriptors (EMFILE).
    enum Descriptors: String, CaseIterable, Sendable { case plenty, few, exhausted }

    /// The attack of issue 46, while it is on: 1,000 idle sockets held open, 60 more stalled in
    /// the middle of a request head (these take descriptors, enough to pass 64: the idle ones wait
    /// in the kernel, `TCP_DEFER_ACCEPT`), and two clients sending 128 KB URLs; a normal tile
    /// request is answered within a second.
    @Test(.serialized, arguments: Descriptors.allCases)
    func aThousandIdleSocketsAndTwoLongURLsLeaveANormalRequestAnswered(descriptors: Descriptors) async throws {
        try Self.allowOpenFiles(8_192, atLeast: 1_500)
        let directory = TemporaryDirectory("serve-flood")
        let root = try await Self.workspace(in: directory)
        let server = try ServeProcess(["--workspace", root, "--port", "0"] + (descriptors == .exhausted ? ["--max-connections", "1000"] : []),
                                      openFiles: descriptors == .plenty ? nil : 64, log: directory.path("serve.log"))
        defer { server.stop() }

        var idle: [RawSocket] = []
        for _ in 0..<1_000 { idle.append(try RawSocket(port: server.port)) }
        for _ in 0..<60 {
            let stalled = try RawSocket(port: server.port)
            stalled.send("GET /tiles/0/0/0.pbf HTTP/1.1\r\nHost: x\r\n")
            idle.append(stalled)
        }
        let longURL = Array("GET /\(String(repeating: "a", count: 128 << 10)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        let attackers = (0..<2).map { _ in Task.detached { try Self.attack(port: server.port, longURL) } }

        let clock = ContinuousClock()
        let started = clock.now
        let answer = try Self.get(port: server.port, "/tiles/0/0/0.pbf")
        let took = clock.now - started
        #expect(RawSocket.status(of: answer) == 200, "\(String(decoding: answer.prefix(200), as: UTF8.self))")
        #expect(took < .seconds(1), "answered in \(took)")

        for attacker in attackers {
            #expect(RawSocket.status(of: try await attacker.value) == 414)
        }
        #expect(server.process.isRunning, "serve survived: \(server.standardError)")
        #expect(RawSocket.status(of: try Self.get(port: server.port, "/style.json")) == 200)
        switch descriptors {
        case .plenty: break
        case .few: #expect(server.standardError.contains("connections held: closing the ones silent longest"), "\(server.standardError)")
        case .exhausted: #expect(server.standardError.contains("out of file descriptors accepting a connection"), "\(server.standardError)")
        }
        withExtendedLifetime(idle) {}
    }

    /// Raises this process's soft open-file limit towards `wanted` (the attack holds 1,000
    /// sockets, and other suites run beside it); fails when the hard limit is below `atLeast`.
    static func allowOpenFiles(_ wanted: Int, atLeast needed: Int) throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        guard limit.rlim_cur < rlim_t(wanted) else { return }
        guard limit.rlim_max >= rlim_t(needed) else {
            throw RawSocket.Failure(description: "the open-file limit is \(limit.rlim_max); the attack needs \(needed)")
        }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

import Foundation
import QuakeHTTP
@testable import QuakeFetch
import Testing
import TestSupport

/// The transport's watchdogs, directly (issue 17.7), against a loopback server that accepts
/// connections and then says nothing (or only its headers): the connect timeout fires while no
/// response has come, and only then; a server that answered its headers and went quiet meets
/// the read timeout instead.
@Suite struct TransportTimeoutTests {
    /// A TCP listener on 127.0.0.1 that accepts every connection, optionally writes `greeting`,
    /// and then keeps it open without a word until it is closed.
    final class SilentServer: @unchecked Sendable {
        let port: UInt16
        private let listener: Int32
        private var accepted: [Int32] = []
        private let lock = NSLock()

        init(greeting: String? = nil) throws {
            let (fd, port) = try LoopbackSocket.listening(backlog: 8)
            listener = fd
            self.port = port
            let thread = Thread { [self] in
                while true {
                    let connection = accept(fd, nil, nil)
                    guard connection >= 0 else { return }
                    if let greeting { _ = greeting.withCString { write(connection, $0, strlen($0)) } }
                    lock.withLock { accepted.append(connection) }
                }
            }
            thread.start()
        }

        func close() {
            shutdown(listener, Int32(SHUT_RDWR))
            Glibc.close(listener)
            lock.withLock { for c in accepted { Glibc.close(c) } }
        }
    }

    @Test func noResponseMeetsTheConnectTimeout() async throws {
        let server = try SilentServer()
        defer { server.close() }
        let transport = HTTPTransport(connectTimeout: 1, readTimeout: 30, deadline: 60, maxBodyBytes: 1 << 20)
        defer { transport.close() }
        let started = Date()
        do {
            _ = try await transport.get(URL(string: "http://127.0.0.1:\(server.port)/fdsnws/event/1/count")!)
            Issue.record("a silent server gave an answer")
        } catch let failure as TransferFailure {
            guard case .connectTimeout(let seconds) = failure else { Issue.record("\(failure)"); return }
            #expect(seconds == 1)
            #expect("\(failure)" == "no response within 1 s (connect timeout)")
        }
        // Not before its time. (How long after is the test machine's business: under the full suite
        // the test itself may wait for a thread; that the 30 s read timeout did not win is the proof.)
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    @Test func headersThenSilenceMeetsTheReadTimeoutNotTheConnectTimeout() async throws {
        let server = try SilentServer(greeting: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npartial")
        defer { server.close() }
        let transport = HTTPTransport(connectTimeout: 1, readTimeout: 3, deadline: 60, maxBodyBytes: 1 << 20)
        defer { transport.close() }
        do {
            _ = try await transport.get(URL(string: "http://127.0.0.1:\(server.port)/fdsnws/event/1/query")!)
            Issue.record("a body that never ends gave an answer")
        } catch let failure as TransferFailure {
            guard case .readTimeout = failure else { Issue.record("expected the read timeout, not \(failure)"); return }
        }
    }
}

import Foundation
import QuakeCommon
import Testing
import TestSupport

/// A certificate that does not verify is a configuration problem (issue 13): exit 1 with a
/// clear message, not 75, which the systemd unit of docs/cron.md treats as "try again later".
/// The server is a real TLS server, `openssl s_server`, with a self-signed certificate.
@Suite struct TLSFailureTests {
    @Test func anUntrustedCertificateIsExit1WithAClearMessage() async throws {
        let directory = TemporaryDirectory("tls")
        let key = directory.path("key.pem").path, certificate = directory.path("cert.pem").path
        _ = try await ChildProcess.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                                                   "-days", "1", "-keyout", key, "-out", certificate]).checked()
        let server = try TLSServer(certificate: certificate, key: key)
        defer { server.stop() }
        let outcome = try await QuakeBakeCLI.run(["fetch", "--workspace", directory.path("ws").path,
                                                  "--service", "https://127.0.0.1:\(server.port)/fdsnws/event/1/",
                                                  "--start", "2024-01-01", "--end", "2024-02-01"])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("the TLS connection failed"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("attempt 2"), "a certificate is not retried: \(outcome.standardError)")
    }

    /// `openssl s_server` on a free loopback port.
    final class TLSServer: @unchecked Sendable {
        let port: Int
        private let process: Process
        private let exited = DispatchSemaphore(value: 0)

        init(certificate: String, key: String) throws {
            port = freeLoopbackPort()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet"]
            process.standardInput = ChildProcess.pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exited = exited
            process.terminationHandler = { _ in exited.signal() }
            try ChildProcess.spawn(process)
            // Ready once it accepts a connection (bounded: 10 s).
            let deadline = Date().addingTimeInterval(10)
            while !Self.accepts(port) {
                guard Date() < deadline, process.isRunning else { throw QuakeBakeError("openssl s_server did not start on port \(port)") }
                usleep(20_000)
            }
        }

        /// Stops the server and waits for it (a semaphore: `waitUntilExit` polls a run loop).
        /// SIGKILL, because a child started from a test thread inherits that thread's blocked
        /// signals, SIGTERM among them.
        func stop() {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }

        static func accepts(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
    }
}

/// A port the kernel just handed out on loopback, free again once returned.
private func freeLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var bound = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: bound.sin_port))
}

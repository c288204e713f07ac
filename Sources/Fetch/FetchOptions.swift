import Foundation

/// How `fetch` talks to the service: where, how patiently, how politely.
public struct FetchOptions: Sendable {
    /// The FDSN event service base, ending in `/fdsnws/event/1/`.
    public var service: URL = URL(string: "https://earthquake.usgs.gov/fdsnws/event/1/")!
    /// Full, incremental, or decided by the journal.
    public var mode: Mode = .automatic
    /// How far before the high-water mark an incremental run starts (ms).
    public var overlap: Int64 = 10 * 60_000
    /// Seconds allowed to connect and receive the response headers.
    public var connectTimeout: TimeInterval = 30
    /// Seconds of silence allowed while a response body arrives.
    public var readTimeout: TimeInterval = 120
    /// Seconds one attempt may take in all, headers and body: a body fed a byte at a time
    /// cannot hold the workspace lock for hours.
    public var requestDeadline: TimeInterval = 60
    /// Largest answer accepted, in bytes, as received and once decompressed (a USGS page of
    /// 20,000 events is 15–20 MB of GeoJSON).
    public var maxBodyBytes = 100 << 20
    /// Longest `Retry-After` obeyed, seconds; a service asking for a longer wait is given up on.
    public var maxRetryAfter: TimeInterval = 600
    /// Seconds one request keeps trying: no attempt starts later than this after the first
    /// (a `Retry-After` the service asked for is waited all the same, up to `maxRetryAfter`).
    /// With `requestDeadline` it bounds a request: at most about 120 + 60 s at the defaults.
    public var giveUpAfter: TimeInterval = 120
    /// Attempts per request before the run gives up.
    public var maxAttempts = 6
    /// Base of the exponential backoff, seconds (doubled per attempt, with full jitter).
    public var retryBaseDelay: TimeInterval = 1
    /// Longest wait between attempts, seconds (a longer `Retry-After` is still honoured).
    public var retryMaxDelay: TimeInterval = 120
    /// Requests in flight at once.
    public var concurrency = 2
    /// Requests allowed per `budgetWindow` seconds.
    public var requestBudget = 400
    /// The budget's sliding window, seconds.
    public var budgetWindow: TimeInterval = 300
    /// Which quakes to fetch details of (ShakeMap, PAGER, DYFI, moment tensor, …).
    public var details: DetailPolicy = .significant
    /// Details fetched per run at most, biggest quakes first (each is one request and a few for
    /// its files); the rest wait for later runs.
    public var detailsPerRun = 200
    /// Largest product file accepted, in bytes, as received and once decompressed (a big
    /// Californian quake's ShakeMap station list is a few MB).
    public var maxContentBytes = 8 << 20

    /// The range each setting may take: anything outside (NaN and infinity included) is refused
    /// where it is given, by flag or by configuration key (by the checks of `FetchOption`). Wide enough for any real use, and
    /// narrow enough that no later arithmetic on a setting overflows (an overlap of 1e300 s
    /// once stopped `fetch` with a trap).
    public enum Limits {
        /// Timeouts, the request deadline, the longest Retry-After, giving up: seconds, up to a day.
        public static let seconds: ClosedRange<Double> = 0.001...86_400
        /// The backoff's base, seconds.
        public static let retryDelay: ClosedRange<Double> = 0...3_600
        /// The incremental overlap, seconds: up to a year.
        public static let overlap: ClosedRange<Double> = 0...(366 * 86_400)
        public static let concurrency: ClosedRange<Int> = 1...16
        public static let budget: ClosedRange<Int> = 1...1_000_000
        public static let attempts: ClosedRange<Int> = 1...100
        /// The largest answer, MB: up to 4 GB.
        public static let bodyMegabytes: ClosedRange<Int> = 1...4_096
        /// Details per run.
        public static let detailsPerRun: ClosedRange<Int> = 0...100_000
    }

    /// Whether to sync incrementally.
    public enum Mode: String, Sendable, CaseIterable {
        /// Incremental when the journal holds a completed fetch of the same selection, else full.
        case automatic
        /// Everything in the selection.
        case full
        /// Only what changed since the last completed fetch of the same selection.
        case incremental
    }

    public init() {}
}

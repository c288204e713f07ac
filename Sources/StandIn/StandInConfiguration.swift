import Foundation

/// How to start the stand-in (the `usgs-stand-in` options, one for one).
public struct StandInConfiguration: Sendable {
    /// ComCat files to serve (GeoJSON or CSV, gzip or plain); on duplicate ids the newest `updated` wins.
    public var catalogs: [URL]
    /// TCP port on 127.0.0.1; 0 takes a free one.
    public var port: UInt16
    /// The search limit: a `query` matching more fails, `count` reports it as `maxAllowed`.
    public var cap: Int
    /// A fixed service "now" (ms since 1970 UTC); `nil` follows the wall clock.
    public var now: Int64?
    /// Fault rules active from the start (see `FaultRule` for the syntax).
    public var faults: [String]
    /// Replay mode, when set.
    public var replay: ReplayOptions?
    /// Recorded detail answers and product files (`events/ID.geojson[.gz]`, `product/PATH[.gz]`,
    /// as in `data/usgs/detail`), when set.
    public var details: URL?

    /// Replay of the history file: "the catalog as of T", T moved by the admin interface.
    public struct ReplayOptions: Sendable {
        /// The history CSV (`first_seen`, `source_repo`, then the 22 ComCat columns), gzip or plain.
        public var file: URL
        /// T at startup (ms since 1970 UTC); `nil` starts at the first `first_seen`.
        public var start: Int64?
        /// Seed of the simulated preferred-id changes and deletions.
        public var seed: UInt64
        /// Chance that an event changed in a step gets a new preferred id.
        public var renameRate: Double
        /// Chance that an event changed in a step is deleted.
        public var deleteRate: Double

        public init(file: URL, start: Int64? = nil, seed: UInt64 = 1, renameRate: Double = 0, deleteRate: Double = 0) {
            self.file = file
            self.start = start
            self.seed = seed
            self.renameRate = renameRate
            self.deleteRate = deleteRate
        }
    }

    public init(catalogs: [URL] = [], port: UInt16 = 0, cap: Int = 20_000, now: Int64? = nil, faults: [String] = [],
                replay: ReplayOptions? = nil, details: URL? = nil) {
        self.catalogs = catalogs
        self.port = port
        self.cap = cap
        self.now = now
        self.faults = faults
        self.replay = replay
        self.details = details
    }
}

import Foundation

/// The bounds a ``BundleClient`` holds everything it reads from a publication to: a pointer or a
/// file past them is refused before it is used, whatever the publication says.
public struct BundleClientLimits: Sendable, Equatable {
    /// The most bytes `current.json` may have (a real one has a few KB, about 250 bytes more for
    /// each quake with details: the pointer names every `details/<id>.json` of the bundle).
    public var pointerBytes: Int = 8 << 20
    /// The most bytes one file may have, as stored and once decoded.
    public var fileBytes: Int64 = 16 << 30
    /// The most files a pointer may name in ``PublishedPointer/files`` and in each delta chain
    /// (a bundle has some twenty files, and one `details/<id>.json` per quake with details:
    /// every significant quake of the catalog by default, more with `fetch --details all`).
    public var files: Int = 20_000
    /// The most delta chains a pointer may hold (one per older version).
    public var deltaChains: Int = 1_000
    /// The most steps one delta chain may have.
    public var deltaSteps: Int = 100
    /// The most rows a table of a bundle file or a delta may hold.
    public var rows: Int64 = 100_000_000
    /// How long a request may wait for the next bytes before it counts as failed, in seconds.
    public var idleTimeout: TimeInterval = 60
    /// How many times a failed request is tried again (each after a longer pause: 0.5 s, 1 s, 2 s…,
    /// at most 8 s) before the source counts as unreachable; a retry that got bytes starts the count over.
    public var retries: Int = 4

    /// The defaults.
    public init() {}
}

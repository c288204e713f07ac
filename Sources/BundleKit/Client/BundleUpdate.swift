/// What ``BundleClient/update()`` did.
public struct BundleUpdate: Sendable, Equatable {
    /// How the local bundle came to hold ``version``.
    public enum Way: Sendable, Equatable {
        /// It held that version already: nothing was downloaded but the pointer (and the files
        /// a wider ``BundleFileSelection`` adds, if any).
        case alreadyCurrent
        /// The held version's tiles and rows were brought up by deltas.
        case deltas
        /// The tiles and rows were downloaded whole (no delta from the held version, none held,
        /// or a delta that failed its checks: ``notes`` says why).
        case full
    }

    /// How it came about.
    public let way: Way
    /// The version held before (`nil`: none).
    public let previousVersion: String?
    /// The version held now: the pointer's.
    public let version: String
    /// Bytes received from the source during this update, the pointer's included.
    public let downloadedBytes: Int64
    /// What was tried and refused on the way (a delta that failed a check), for a log.
    public let notes: [String]
}

/// A moment of an update, for a progress display or a log.
public enum BundleUpdateEvent: Sendable, Equatable {
    /// Downloading `name`: `done` of `total` bytes.
    case downloading(name: String, done: Int64, total: Int64)
    /// Applying the step of a delta to `base` → `target`.
    case applying(base: String, target: String)
    /// Something a log should say (a delta refused, a file reused from the held version).
    case note(String)
}

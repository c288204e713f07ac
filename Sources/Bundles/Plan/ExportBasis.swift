import Foundation
import Logging
import QuakeBundleFormat

/// What an export builds on, decided once before any stage runs: nothing (a full export), or
/// the current version (an incremental one: its event cache, copies of its app database and
/// MBTiles, its export state and its tiles).
enum ExportBasis {
    /// Nothing of the current version (none, or `--full`): every row read, every tile encoded, every file written.
    case fresh
    /// The current version, `--full` not given.
    case incremental(PreviousVersion)

    /// The basis of an export with `options` into `run`'s output directory: the current version
    /// unless there is none or tiles are not reused; reads its event cache (logged on `run`'s stopwatch).
    static func decide(options: ExportOptions, run: ExportRun) -> ExportBasis {
        let cache = run.stopwatch.measure({ $0 == nil ? "no event cache to start from" : "read the event cache (\($0!.snapshot.table.count) events)" }) {
            options.reuseTiles ? run.current.flatMap {
                EventCache.read(out: run.out, version: $0.lastPathComponent, options: options, spill: run.spill, logger: run.logger)
            } : nil
        }
        guard options.reuseTiles, let current = run.current else { return .fresh }
        return .incremental(PreviousVersion(directory: current, cache: Handoff(cache),
                                            storeMoved: Manifest.highWaterMark(in: current) != run.highWaterMark))
    }

    /// The previous version, when the export builds on one.
    var previous: PreviousVersion? {
        if case .incremental(let previous) = self { return previous }
        return nil
    }
}

/// The current version an incremental export builds on.
struct PreviousVersion {
    /// Its version directory.
    let directory: URL
    /// Its event cache, taken by the read; empty when it has none that fits this export's
    /// selection (the whole selection is then read, its tiles still reused).
    let cache: Handoff<EventCache>
    /// Whether the store's high-water mark moved since it: then its files are copied and checked
    /// beside the read (else most likely nothing changed, and they are only once the bundle does).
    let storeMoved: Bool
    /// Whether it has an event cache that fits (known before the read takes it).
    var hasCache: Bool { cache.holds }

    /// Its files an incremental export builds on: the tiles it reuses (and copies when none
    /// changed) and the app database it patches.
    static let builtUpon = [BundleFileName.pmtiles, BundleFileName.tiles, BundleFileName.appDatabase]
}

/// A value handed over once: the one who takes it holds the only reference (the event cache's
/// table is then updated in place, not copied).
final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?
    /// Whether it held a value when made.
    let holds: Bool

    init(_ value: Value?) {
        self.value = value
        holds = value != nil
    }

    /// The value, once; `nil` after.
    func take() -> Value? {
        defer { value = nil }
        return value
    }
}

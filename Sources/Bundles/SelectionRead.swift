import Foundation
import QuakeTiles

/// Reads the selection from the store: all of it, or, given the event cache of the current
/// bundle, only the rows whose key (`RowKey`) the cache does not know.
///
/// The incremental read scans two columns of every row (id and `updated`) to find the
/// keys, drops from the cached table the events whose key is gone (deleted, merged away or
/// changed), and reads the new and changed rows in full. Events keep no order a bundle
/// depends on (everything is sorted by content), so the table it gives makes the same
/// bundle as a full read; the tests compare the bytes.
enum SelectionRead {
    /// What the previous export knew about the events of an incremental read.
    struct Previous {
        /// Events `0..<kept` of the table were in the previous export unchanged; the rest are new or changed.
        let kept: Int
        /// Their minzoom in the previous export (per event; meaningful below `kept`).
        let minZoom: [UInt8]
        /// Where the previous export's events that are gone or changed were (longitude, latitude).
        let removed: [(longitude: Double, latitude: Double)]
        /// Keys of the events whose feature id a collision had moved in the previous export.
        let movedKeys: [UInt64]
    }

    /// How the selection's rows changed since the previous export, for its app database.
    struct Changes: Sendable {
        /// Ids of the previous export's events that are gone or changed.
        let gone: [String]
        /// Store rowids of the rows that are new or changed, with their events in the table.
        let incoming: [(rowid: Int64, event: Int)]
        /// Events of the table whose feature id a collision had moved in the previous export.
        let movedBefore: [Int]
    }

    struct Result {
        var snapshot: StoreSnapshot
        /// Set after an incremental read whose cache was made with the same tile options.
        let previous: Previous?
        /// Set after an incremental read.
        let changes: Changes?
        /// Rows read in full (the whole selection after a full read).
        let rowsRead: Int
    }

    /// Reads the selection of `options`, incrementally when `cache` is given and few rows changed.
    /// The cache is taken (set to `nil`), so that its table is updated in place rather than copied.
    static func read(_ reader: StoreReader, options: ExportOptions, cache: inout EventCache?) throws -> Result {
        let scanned = try reader.rowKeys()
        if var taken = cache {
            cache = nil
            if let result = try update(&taken, scanned: scanned, reader: reader, options: options) { return result }
        }
        let (table, keys) = try reader.readSelected(options.selection, attributes: options.attributes)
        let others = StoreSnapshot.otherKeys(all: scanned.map(\.key).sorted(), selected: keys)
        return Result(snapshot: StoreSnapshot(table: table, eventKeys: keys, otherKeys: others), previous: nil, changes: nil,
                      rowsRead: table.count)
    }

    /// Brings the cached snapshot up to date; `nil` when so many rows changed that a full read costs less.
    private static func update(_ cache: inout EventCache, scanned: [(key: UInt64, rowid: Int64)], reader: StoreReader,
                               options: ExportOptions) throws -> Result? {
        // The keys alone are sorted (a plain integer sort); the few new ones find their rowids after.
        var current = scanned.map(\.key)
        current.sort()
        let known = cache.snapshot.allKeys
        // Every row has one key: a cache holding one twice is not one this export made.
        guard zip(known, known.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        var changedKeys = Set<UInt64>()
        var vanished = Set<UInt64>()
        var i = 0, j = 0
        while i < current.count || j < known.count {
            if j == known.count || (i < current.count && current[i] < known[j]) {
                changedKeys.insert(current[i])
                i += 1
            } else if i == current.count || known[j] < current[i] {
                vanished.insert(known[j])
                j += 1
            } else {
                i += 1
                j += 1
            }
            if changedKeys.count > current.count / 4 { return nil }
        }
        let changed = changedKeys.isEmpty ? [] : scanned.filter { changedKeys.contains($0.key) }.map(\.rowid)

        var snapshot = cache.snapshot
        cache.snapshot = StoreSnapshot(table: EventTable(attributes: options.attributes), eventKeys: [], otherKeys: [])
        var removed: [Int] = []
        if !vanished.isEmpty {
            for (event, key) in snapshot.eventKeys.enumerated() where vanished.contains(key) { removed.append(event) }
        }
        let positions = removed.map { (snapshot.table.longitude[$0], snapshot.table.latitude[$0]) }
        let gone = removed.map { snapshot.table.id($0) }
        snapshot.table.removeEvents(removed)
        snapshot.eventKeys.remove(atAscending: removed)
        var minZoom = cache.minZoom
        cache.minZoom = []
        minZoom.remove(atAscending: removed)
        let kept = snapshot.table.count
        let appended = try reader.readRows(changed.sorted(), options.selection, into: &snapshot)
        snapshot.table.shrinkToFit()
        snapshot.otherKeys = StoreSnapshot.otherKeys(all: current, selected: snapshot.eventKeys)
        let previous = cache.tilesDigest == ExportState.optionsDigest(options)
            ? Previous(kept: kept, minZoom: minZoom, removed: positions, movedKeys: cache.movedKeys) : nil
        let incoming = appended.enumerated().map { ($1, kept + $0) }
        let movedKeys = Set(cache.movedKeys)
        let movedBefore = movedKeys.isEmpty ? [] : snapshot.eventKeys.indices.filter { movedKeys.contains(snapshot.eventKeys[$0]) }
        return Result(snapshot: snapshot, previous: previous, changes: Changes(gone: gone, incoming: incoming, movedBefore: movedBefore),
                      rowsRead: changed.count)
    }
}

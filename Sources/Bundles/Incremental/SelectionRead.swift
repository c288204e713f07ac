import Foundation
import QuakeCommon
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
        /// Per event: true when it was in the previous export unchanged, false when it is new or changed.
        let known: [Bool]
        /// Its minzoom in the previous export (meaningful where `known`).
        let minZoom: [UInt8]
        /// Where and when the previous export's events that are gone or changed were.
        let removed: [(longitude: Double, latitude: Double, time: Int64)]
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

    /// Reads the selection of `options`, incrementally when `cache` is given and few rows changed;
    /// `scanned` holds the key of every row (`StoreReader.rowKeys()`). The cache is taken (set to
    /// `nil`), so that its table is updated in place rather than copied. A table read whole
    /// keeps its columns in `spill` (the cache's are where the cache was read to).
    static func read(_ reader: StoreReader, scanned: consuming [(key: UInt64, rowid: Int64)], options: ExportOptions,
                     cache: inout EventCache?, spill: SpillFile?) throws -> Result {
        if var taken = cache {
            cache = nil
            if let result = try update(&taken, scanned: scanned, reader: reader, options: options) { return result }
        }
        // The keys alone, before the table is read: the scan (twice their size) is let go.
        var all = scanned.map(\.key)
        scanned = []
        RadixSort.sort(&all)
        var (table, keys) = try reader.readSelected(options.selection, attributes: options.attributes, spill: spill)
        let others = StoreSnapshot.otherKeys(all: all, selected: keys)
        all = []
        if let order = spatialOrder(table) {
            table.reorder(order)
            keys = keys.reordered(order)
        }
        return Result(snapshot: StoreSnapshot(table: table, eventKeys: keys, otherKeys: others), previous: nil, changes: nil,
                      rowsRead: table.count)
    }

    /// The order that puts the events of `table` in the Morton order of their positions (equal
    /// positions keep their order), or `nil` when they are in it but for a tail of at most a
    /// sixteenth. The export works on the events tile by tile and cell by cell: in this order
    /// the events of each sit together in every column, and baking a tile reads memory in runs
    /// instead of missing the cache at every value. An incremental read appends the new and
    /// changed events: they stay at the end until they are too many to leave there.
    private static func spatialOrder(_ table: EventTable) -> [UInt32]? {
        let codes = (0..<table.count).map {
            Morton.code(x: WebMercator.worldX(longitude: table.longitude[$0]), y: WebMercator.worldY(latitude: table.latitude[$0]))
        }
        guard codes.count - RadixSort.sortedPrefixCount(codes) > codes.count / 16 else { return nil }
        return RadixSort.order(by: codes) { $0 < $1 }
    }

    /// Brings the cached snapshot up to date; `nil` when so many rows changed that a full read costs less.
    private static func update(_ cache: inout EventCache, scanned: [(key: UInt64, rowid: Int64)], reader: StoreReader,
                               options: ExportOptions) throws -> Result? {
        // The keys alone are sorted (a plain integer sort); the few new ones find their rowids after.
        var current = scanned.map(\.key)
        RadixSort.sort(&current)
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
        cache.snapshot = StoreSnapshot(table: EventTable(attributes: options.attributes), eventKeys: SpillableArray(), otherKeys: [])
        var removed: [Int] = []
        if !vanished.isEmpty {
            for (event, key) in snapshot.eventKeys.enumerated() where vanished.contains(key) { removed.append(event) }
        }
        let positions = removed.map { (snapshot.table.longitude[$0], snapshot.table.latitude[$0], snapshot.table.time[$0]) }
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
        // Events 0..<kept are the cached ones and the appended ones follow; put in spatial order,
        // event i is the one that was order[i].
        var unchanged = (0..<snapshot.table.count).map { $0 < kept }
        var incoming = appended.enumerated().map { ($1, kept + $0) }
        minZoom.append(contentsOf: repeatElement(0, count: snapshot.table.count - kept))
        if let order = spatialOrder(snapshot.table) {
            snapshot.table.reorder(order)
            snapshot.eventKeys = snapshot.eventKeys.reordered(order)
            unchanged = unchanged.reordered(order)
            minZoom = minZoom.reordered(order)
            var position = [Int](repeating: 0, count: order.count)
            for (i, event) in order.enumerated() { position[Int(event)] = i }
            incoming = incoming.map { ($0.0, position[$0.1]) }
        }
        let previous = cache.tilesDigest == ExportState.optionsDigest(options)
            ? Previous(known: unchanged, minZoom: minZoom, removed: positions, movedKeys: cache.movedKeys)
            : nil
        let movedKeys = Set(cache.movedKeys)
        let movedBefore = movedKeys.isEmpty ? [] : snapshot.eventKeys.indices.filter { movedKeys.contains(snapshot.eventKeys[$0]) }
        return Result(snapshot: snapshot, previous: previous, changes: Changes(gone: gone, incoming: incoming, movedBefore: movedBefore),
                      rowsRead: changed.count)
    }
}

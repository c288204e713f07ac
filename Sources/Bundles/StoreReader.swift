import Foundation
import QuakeCommon
import QuakeStore
import QuakeTiles

/// Reads the store's events (through `StoreRows`, the store's read API) into the export's
/// `EventTable`, each with its fingerprint and row key.
struct StoreReader: Sendable {
    let rows: StoreRows

    /// Columns every export reads, before the attribute columns.
    static let coreColumns = ["id", "longitude", "latitude", "mag", "time", "updated"]

    /// Opens the store read-only (see `StoreRows.init(path:)`).
    init(path: URL) throws {
        rows = try StoreRows(path: path)
    }

    /// The store's high-water mark (see `StoreRows.highWaterMark()`).
    func highWaterMark() throws -> Int64 {
        try rows.highWaterMark()
    }

    /// Reads the selected events into an `EventTable` holding `attributes`, with their row keys
    /// (`rowKeys()` gives those of every row).
    ///
    /// Each event's fingerprint hashes every column read (type and value), so it
    /// changes whenever anything the bundle shows about the event changes.
    func readSelected(_ selection: Selection, attributes: [EventAttribute], spill: SpillFile?) throws -> (table: EventTable, keys: SpillableArray<UInt64>) {
        var table = EventTable(attributes: attributes, spill: spill)
        var keys = SpillableArray<UInt64>(spill: spill)
        let count = try rows.count()
        table.reserveCapacity(count)
        keys.reserveCapacity(count)
        try rows.forEach(columns: Self.columns(table), of: selection.filter) { row in
            Self.append(row, to: &table)
            keys.append(Self.rowKey(row))
            table.releaseResident(scanning: table.count - 1)
        }
        table.shrinkToFit()
        return (table, keys)
    }

    /// The row key (`RowKey`) and rowid of every row of `events`.
    func rowKeys() throws -> [(key: UInt64, rowid: Int64)] {
        try rows.rowKeys { id, updated in RowKey.of(id: id, updated: updated) }
    }

    /// Appends the rows `rowids` that match `selection` to `snapshot` (table and event keys);
    /// returns the rowids of the rows appended.
    func readRows(_ rowids: [Int64], _ selection: Selection, into snapshot: inout StoreSnapshot) throws -> [Int64] {
        guard !rowids.isEmpty else { return [] }
        var appended: [Int64] = []
        try rows.forEach(columns: Self.columns(snapshot.table), of: selection.filter, rowids: rowids) { row in
            Self.append(row, to: &snapshot.table)
            snapshot.eventKeys.append(Self.rowKey(row))
            appended.append(row.rowid!)
        }
        return appended
    }

    /// The columns read per event: the core columns, then the table's stored attributes.
    private static func columns(_ table: EventTable) -> [String] {
        coreColumns + table.storedAttributes.map { $0.storeColumn! }
    }

    /// The row key of the current row, whose column 0 is the id and 5 `updated`.
    private static func rowKey(_ row: StoreRows.Cursor) -> UInt64 {
        row.withText(0) { id in RowKey.of(id: id ?? UnsafeRawBufferPointer(start: nil, count: 0), updated: row.int64(5)) }
    }

    /// Appends the current row (the columns of `columns(table)`) to `table`.
    private static func append(_ row: StoreRows.Cursor, to table: inout EventTable) {
        let stored = table.storedAttributes
        let columnCount = Int32(coreColumns.count + stored.count)
        var hasher = SipHasher()
        for c in 0..<columnCount { hash(column: c, of: row, into: &hasher) }
        let magnitude: Double? = row.isNull(3) ? nil : row.double(3)
        row.withText(0) { id in
            table.appendEvent(id: id ?? UnsafeRawBufferPointer(start: nil, count: 0), longitude: row.double(1), latitude: row.double(2),
                              magnitude: magnitude, time: row.int64(4), fingerprint: hasher.finalize())
        }
        for (index, attribute) in stored.enumerated() {
            let c = Int32(coreColumns.count + index)
            switch attribute.kind {
            case .text, .category: row.withText(c) { table.appendText(index, $0) }
            case .real: table.appendReal(index, row.isNull(c) ? nil : row.double(c))
            case .integer: table.appendInteger(index, row.isNull(c) ? nil : row.int64(c))
            case .computed: break
            }
        }
    }

    private static func hash(column c: Int32, of row: StoreRows.Cursor, into hasher: inout SipHasher) {
        let type = row.type(c)
        hasher.combine(byte: type.rawValue)
        switch type {
        case .integer: hasher.combine(row.int64(c))
        case .real: hasher.combine(row.double(c))
        case .null: break
        case .text:
            row.withText(c) { bytes in
                hasher.combine(UInt64(bytes?.count ?? 0))
                if let bytes { hasher.combine(bytes: bytes) }
            }
        }
    }
}

extension Selection {
    /// The rows of the store this selection takes.
    var filter: EventFilter {
        EventFilter(since: since, until: until, minMagnitude: minMagnitude, bbox: bbox, eventTypes: eventTypes)
    }
}

import Foundation
import GRDB
import GRDBSQLite
import QuakeCommon
import QuakeTiles

/// Reads the store (`store/quakes.sqlite`, the contract in docs/ARCHITECTURE.md)
/// with plain SQL: no SpatiaLite function is needed to read the contract columns.
struct StoreReader: Sendable {
    let path: URL
    private let queue: DatabaseQueue

    /// Columns every export reads, before the attribute columns.
    static let coreColumns = ["id", "longitude", "latitude", "mag", "time", "updated"]

    /// Opens the store read-only; a missing or foreign file is an error a person can act on.
    init(path: URL) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path.path) else {
            throw QuakeBakeError("no store at \(path.path): run `quake-bake index` first")
        }
        do {
            queue = try Self.open(path)
            let columns = try queue.read { db in try Set(db.columns(in: "events").map(\.name)) }
            let needed = Set(Self.coreColumns + EventAttribute.allCases.compactMap(\.storeColumn))
            let missing = needed.subtracting(columns).sorted()
            guard missing.isEmpty else {
                throw QuakeBakeError("the store \(path.path) lacks the events column(s) \(missing.joined(separator: ", ")); is it a quake-bake store?")
            }
        } catch let error as QuakeBakeError {
            throw error
        } catch {
            throw QuakeBakeError("cannot read the store \(path.path): \(error)")
        }
    }

    private static func open(_ path: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "export.store"
        return try DatabaseQueue(path: path.path, configuration: configuration)
    }

    /// The store's high-water mark: the newest `updated` of any event or deletion (tombstone), in ms;
    /// 0 for an empty store.
    func highWaterMark() throws -> Int64 {
        try queue.read { db in
            let events = try Int64.fetchOne(db, sql: "SELECT max(updated) FROM events") ?? 0
            guard try db.tableExists("tombstones") else { return events }
            return max(events, try Int64.fetchOne(db, sql: "SELECT max(updated) FROM tombstones") ?? 0)
        }
    }

    /// Reads the selected events into an `EventTable` holding `attributes`, with their row keys
    /// (`rowKeys()` gives those of every row).
    ///
    /// Each event's fingerprint hashes every column read (type and value), so it
    /// changes whenever anything the bundle shows about the event changes.
    func readSelected(_ selection: Selection, attributes: [EventAttribute]) throws -> (table: EventTable, keys: [UInt64]) {
        var table = EventTable(attributes: attributes)
        var keys: [UInt64] = []
        let rows = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
        table.reserveCapacity(rows)
        keys.reserveCapacity(rows)
        let (condition, arguments) = SelectionSQL.condition(selection, table: "events")
        let sql = "SELECT \(Self.columns(table).joined(separator: ", ")) FROM events WHERE \(condition)"
        try queue.read { db in
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments))
            let s = statement.sqliteStatement
            while try Self.step(s, db, path: path) {
                Self.append(s, to: &table)
                keys.append(Self.rowKey(s))
            }
        }
        table.shrinkToFit()
        return (table, keys)
    }

    /// The row key of every row of `events`: one pass over the table reading two columns,
    /// its two halves (by rowid) read at once on two connections: the pass reads the whole
    /// table, and nothing else can start before it ends.
    func rowKeys() throws -> [(key: UInt64, rowid: Int64)] {
        let (low, high) = try queue.read { db in
            (try Int64.fetchOne(db, sql: "SELECT min(rowid) FROM events") ?? 0, try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM events") ?? 0)
        }
        let middle = low / 2 + high / 2  // no overflow, whatever the rowids
        let other = try Self.open(path)
        let upper = BackgroundWork("export.row-keys") { try Self.rowKeys(middle + 1, high, queue: other, path: path) }
        let lower = Result { try Self.rowKeys(low, middle, queue: queue, path: path) }
        let higher = Result { try upper.wait() }
        return try lower.get() + higher.get()
    }

    private static func rowKeys(_ low: Int64, _ high: Int64, queue: DatabaseQueue, path: URL) throws -> [(key: UInt64, rowid: Int64)] {
        var keys: [(key: UInt64, rowid: Int64)] = []
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT id, rowid, updated FROM events WHERE rowid BETWEEN ? AND ?")
            try statement.setArguments([low, high])
            let s = statement.sqliteStatement
            while try step(s, db, path: path) {
                keys.append((Self.rowKey(s, updatedColumn: 2), sqlite3_column_int64(s, 1)))
            }
        }
        return keys
    }

    /// Appends the rows `rowids` that match `selection` to `snapshot` (table and event keys);
    /// returns the rowids of the rows appended.
    func readRows(_ rowids: [Int64], _ selection: Selection, into snapshot: inout StoreSnapshot) throws -> [Int64] {
        guard !rowids.isEmpty else { return [] }
        var appended: [Int64] = []
        let (condition, arguments) = SelectionSQL.condition(selection, table: "events")
        let sql = "SELECT \(Self.columns(snapshot.table).joined(separator: ", ")) FROM events WHERE (\(condition)) AND rowid = ?"
        try queue.read { db in
            let statement = try db.makeStatement(sql: sql)
            let s = statement.sqliteStatement
            for rowid in rowids {
                try statement.setArguments(StatementArguments(arguments + [rowid]))
                while try Self.step(s, db, path: path) {
                    Self.append(s, to: &snapshot.table)
                    snapshot.eventKeys.append(Self.rowKey(s))
                    appended.append(rowid)
                }
                sqlite3_reset(s)
            }
        }
        return appended
    }

    /// The columns read per event: the core columns, then the table's stored attributes.
    private static func columns(_ table: EventTable) -> [String] {
        coreColumns + table.storedAttributes.map { $0.storeColumn! }
    }

    /// Steps `s`: true for a row, false when done.
    private static func step(_ s: OpaquePointer, _ db: Database, path: URL) throws -> Bool {
        let rc = sqlite3_step(s)
        if rc == SQLITE_DONE { return false }
        guard rc == SQLITE_ROW else {
            throw QuakeBakeError("cannot read the store \(path.path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
        return true
    }

    /// The row key of the current row, whose column 0 is the id.
    private static func rowKey(_ s: OpaquePointer, updatedColumn: Int32 = 5) -> UInt64 {
        withText(s, 0) { id in RowKey.of(id: id ?? UnsafeRawBufferPointer(start: nil, count: 0), updated: sqlite3_column_int64(s, updatedColumn)) }
    }

    /// Appends the current row (the columns of `columns(table)`) to `table`.
    private static func append(_ s: OpaquePointer, to table: inout EventTable) {
        let stored = table.storedAttributes
        let columnCount = Int32(coreColumns.count + stored.count)
        var hasher = SipHasher()
        for c in 0..<columnCount { hash(column: c, of: s, into: &hasher) }
        let magnitude: Double? = sqlite3_column_type(s, 3) == SQLITE_NULL ? nil : sqlite3_column_double(s, 3)
        withText(s, 0) { id in
            table.appendEvent(id: id ?? UnsafeRawBufferPointer(start: nil, count: 0),
                              longitude: sqlite3_column_double(s, 1), latitude: sqlite3_column_double(s, 2),
                              magnitude: magnitude, time: sqlite3_column_int64(s, 4), fingerprint: hasher.finalize())
        }
        for (index, attribute) in stored.enumerated() {
            let c = Int32(coreColumns.count + index)
            let isNull = sqlite3_column_type(s, c) == SQLITE_NULL
            switch attribute.kind {
            case .text, .category: withText(s, c) { table.appendText(index, $0) }
            case .real: table.appendReal(index, isNull ? nil : sqlite3_column_double(s, c))
            case .integer: table.appendInteger(index, isNull ? nil : sqlite3_column_int64(s, c))
            case .computed: break
            }
        }
    }

    private static func hash(column c: Int32, of s: OpaquePointer, into hasher: inout SipHasher) {
        let type = sqlite3_column_type(s, c)
        hasher.combine(byte: UInt8(type))
        switch type {
        case SQLITE_INTEGER: hasher.combine(sqlite3_column_int64(s, c))
        case SQLITE_FLOAT: hasher.combine(sqlite3_column_double(s, c))
        case SQLITE_NULL: break
        default:
            withText(s, c) { bytes in
                hasher.combine(UInt64(bytes?.count ?? 0))
                if let bytes { hasher.combine(bytes: bytes) }
            }
        }
    }

    /// Calls `body` with the column's text bytes (`nil` for NULL), valid only during the call.
    private static func withText<T>(_ s: OpaquePointer, _ c: Int32, _ body: (UnsafeRawBufferPointer?) -> T) -> T {
        guard sqlite3_column_type(s, c) != SQLITE_NULL else { return body(nil) }
        let pointer = sqlite3_column_text(s, c)
        let count = Int(sqlite3_column_bytes(s, c))
        return body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

/// The SQL condition of a selection, shared by the event scan and the app database copy.
enum SelectionSQL {
    /// `condition` over columns of `table`, with its arguments in order.
    static func condition(_ selection: Selection, table: String) -> (String, [DatabaseValueConvertible]) {
        let t = table + "."
        var parts = ["\(t)time IS NOT NULL", "\(t)longitude IS NOT NULL", "\(t)latitude IS NOT NULL",
                     "(\(t)status IS NULL OR \(t)status <> 'deleted')"]
        var arguments: [DatabaseValueConvertible] = []
        if let since = selection.since { parts.append("\(t)time >= ?"); arguments.append(since) }
        if let until = selection.until { parts.append("\(t)time < ?"); arguments.append(until) }
        if let minMagnitude = selection.minMagnitude { parts.append("\(t)mag >= ?"); arguments.append(minMagnitude) }
        if let box = selection.bbox {
            parts.append("\(t)latitude BETWEEN ? AND ?")
            arguments += [box.south, box.north]
            if box.crossesAntimeridian {
                parts.append("(\(t)longitude >= ? OR \(t)longitude <= ?)")
            } else {
                parts.append("\(t)longitude BETWEEN ? AND ?")
            }
            arguments += [box.west, box.east]
        }
        if !selection.eventTypes.isEmpty {
            parts.append("\(t)event_type IN (\(selection.eventTypes.map { _ in "?" }.joined(separator: ", ")))")
            arguments += selection.eventTypes.map { $0 as DatabaseValueConvertible }
        }
        return (parts.joined(separator: " AND "), arguments)
    }
}

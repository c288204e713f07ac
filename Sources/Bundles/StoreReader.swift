import Foundation
import GRDB
import GRDBSQLite
import QuakeCommon
import QuakeTiles

/// Reads the store (`store/quakes.sqlite`, the contract in docs/ARCHITECTURE.md)
/// with plain SQL: no SpatiaLite function is needed to read the contract columns.
struct StoreReader {
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
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "export.store"
        do {
            queue = try DatabaseQueue(path: path.path, configuration: configuration)
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

    /// The store's high-water mark: the newest `updated` of any event or deletion (tombstone), in ms;
    /// 0 for an empty store.
    func highWaterMark() throws -> Int64 {
        try queue.read { db in
            let events = try Int64.fetchOne(db, sql: "SELECT max(updated) FROM events") ?? 0
            guard try db.tableExists("tombstones") else { return events }
            return max(events, try Int64.fetchOne(db, sql: "SELECT max(updated) FROM tombstones") ?? 0)
        }
    }

    /// Reads the selected events into an `EventTable` holding `attributes`.
    ///
    /// Each event's fingerprint hashes every column read (type and value), so it
    /// changes whenever anything the bundle shows about the event changes.
    func readEvents(_ selection: Selection, attributes: [EventAttribute]) throws -> EventTable {
        var table = EventTable(attributes: attributes)
        table.reserveCapacity(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 })
        let stored = table.storedAttributes
        let columns = Self.coreColumns + stored.map { $0.storeColumn! }
        let (condition, arguments) = SelectionSQL.condition(selection, table: "events")
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM events WHERE \(condition)"
        try queue.read { db in
            let statement = try db.makeStatement(sql: sql)
            try statement.setArguments(StatementArguments(arguments))
            let s = statement.sqliteStatement
            let columnCount = Int32(columns.count)
            while true {
                let rc = sqlite3_step(s)
                if rc == SQLITE_DONE { break }
                guard rc == SQLITE_ROW else {
                    throw QuakeBakeError("cannot read the store \(path.path): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
                }
                var hasher = SipHasher()
                for c in 0..<columnCount { Self.hash(column: c, of: s, into: &hasher) }
                let magnitude: Double? = sqlite3_column_type(s, 3) == SQLITE_NULL ? nil : sqlite3_column_double(s, 3)
                Self.withText(s, 0) { id in
                    table.appendEvent(id: id ?? UnsafeRawBufferPointer(start: nil, count: 0),
                                      longitude: sqlite3_column_double(s, 1), latitude: sqlite3_column_double(s, 2),
                                      magnitude: magnitude, time: sqlite3_column_int64(s, 4), fingerprint: hasher.finalize())
                }
                for (index, attribute) in stored.enumerated() {
                    let c = Int32(Self.coreColumns.count + index)
                    let isNull = sqlite3_column_type(s, c) == SQLITE_NULL
                    switch attribute.kind {
                    case .text, .category: Self.withText(s, c) { table.appendText(index, $0) }
                    case .real: table.appendReal(index, isNull ? nil : sqlite3_column_double(s, c))
                    case .integer: table.appendInteger(index, isNull ? nil : sqlite3_column_int64(s, c))
                    case .computed: break
                    }
                }
            }
        }
        table.shrinkToFit()
        return table
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

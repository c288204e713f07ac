import Foundation
import GRDB
import GRDBSQLite
import QuakeCatalog
import QuakeCommon

/// The store read fast, for the export: plain SQLite, read-only, no SpatiaLite function
/// (none is needed to read the contract columns), rows handed over in place through a
/// `Cursor` instead of being decoded into values.
///
/// The columns it reads are named in `StoreColumns`; this is where the store's high-water
/// mark is computed, for `EventStore.statistics()` too.
public struct StoreRows: Sendable {
    /// The store file.
    public let path: URL
    private let queue: DatabaseQueue

    /// Opens the store at `path` read-only; a missing file, or one without the contract
    /// columns, is an error a person can act on.
    public init(path: URL) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path.path) else {
            throw QuakeBakeError("no store at \(path.path): run `quake-bake index` first")
        }
        do {
            queue = try Self.open(path)
            let columns = try queue.read { db in try Set(db.columns(in: "events").map(\.name)) }
            let missing = Set(StoreColumns.contractNames).subtracting(columns).sorted()
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
        configuration.label = "store.rows"
        return try DatabaseQueue(path: path.path, configuration: configuration)
    }

    /// The store's high-water mark: the newest `updated` of any event or deletion (tombstone),
    /// in ms; 0 for an empty store.
    public func highWaterMark() throws -> Int64 {
        try queue.read { db in try Self.highWaterMark(db) ?? 0 }
    }

    /// The newest `updated` of any event or tombstone of the store open on `db`, if any.
    static func highWaterMark(_ db: Database) throws -> Int64? {
        let events = try Int64.fetchOne(db, sql: "SELECT max(updated) FROM events")
        guard try db.tableExists("tombstones") else { return events }
        return [events, try Int64.fetchOne(db, sql: "SELECT max(updated) FROM tombstones")].compactMap { $0 }.max()
    }

    /// Rows of `events` whose position is not a number within -180…180, -90…90: how many, and
    /// the first three (id and position). The index never stores one; a store written to
    /// behind its back may hold some, and no read of `EventFilter` selects them (a position
    /// like that cannot be drawn, and would make no tile).
    public func misplacedRows() throws -> (count: Int, examples: [String]) {
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT CAST(id AS TEXT), quote(longitude), quote(latitude), count(*) OVER () FROM events
                 WHERE NOT (longitude BETWEEN -180 AND 180 AND latitude BETWEEN -90 AND 90) ORDER BY rowid LIMIT 3
                """)
            let examples = try rows.map { row in
                "\(try row.decode(String?.self, atIndex: 0) ?? "(no id)") (longitude \(try row.decode(String.self, atIndex: 1)), latitude \(try row.decode(String.self, atIndex: 2)))"
            }
            return (try rows.first.map { try $0.decode(Int.self, atIndex: 3) } ?? 0, examples)
        }
    }

    /// The details (`id`, summary JSON) of the rows of `events` that `filter` selects, by id; none
    /// from a store made before it had a `details` table.
    public func details(of filter: EventFilter) throws -> [(id: String, summary: String)] {
        try queue.read { db in
            guard try db.tableExists("details") else { return [] }
            let (condition, arguments) = filter.condition(table: "events")
            return try Row.fetchAll(db, sql: """
                SELECT details.id, details.summary FROM details JOIN events ON events.id = details.id
                WHERE \(condition) ORDER BY details.id
                """, arguments: StatementArguments(arguments)).map { ($0[0] as String, $0[1] as String) }
        }
    }

    /// The number of rows of `events`.
    public func count() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0 }
    }

    /// `key(id, updated)` and the rowid of every row of `events`: one pass over the table
    /// reading three columns, its two halves (by rowid) read at once on two connections (the
    /// pass reads the whole table, and nothing else can start before it ends).
    public func rowKeys(_ key: @escaping @Sendable (_ id: UnsafeRawBufferPointer, _ updated: Int64) -> UInt64) throws
        -> [(key: UInt64, rowid: Int64)] {
        let (low, high) = try queue.read { db in
            (try Int64.fetchOne(db, sql: "SELECT min(rowid) FROM events") ?? 0, try Int64.fetchOne(db, sql: "SELECT max(rowid) FROM events") ?? 0)
        }
        let middle = low / 2 + high / 2  // no overflow, whatever the rowids
        let other = try Self.open(path)
        let path = self.path
        let upper = BackgroundWork("store.row-keys") { try Self.rowKeys(middle + 1, high, queue: other, path: path, key: key) }
        let lower = Result { try Self.rowKeys(low, middle, queue: queue, path: path, key: key) }
        let higher = Result { try upper.wait() }
        return try lower.get() + higher.get()
    }

    private static func rowKeys(_ low: Int64, _ high: Int64, queue: DatabaseQueue, path: URL,
                                key: (UnsafeRawBufferPointer, Int64) -> UInt64) throws -> [(key: UInt64, rowid: Int64)] {
        var keys: [(key: UInt64, rowid: Int64)] = []
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT id, rowid, updated FROM events WHERE rowid BETWEEN ? AND ?")
            try statement.setArguments([low, high])
            let row = Cursor(statement: statement.sqliteStatement)
            while try step(row.statement, db, path: path) {
                keys.append((row.withText(0) { key($0 ?? UnsafeRawBufferPointer(start: nil, count: 0), row.int64(2)) }, row.int64(1)))
            }
        }
        return keys
    }

    /// Calls `body` with each row of `events` that `filter` selects, reading `columns` (names
    /// among `StoreColumns.contractNames`), in table order; given `rowids`, only those rows, in that order.
    public func forEach(columns: [String], of filter: EventFilter, rowids: [Int64]? = nil, _ body: (Cursor) throws -> Void) throws {
        let (condition, arguments) = filter.condition(table: "events")
        let sql = "SELECT \(columns.map { StoreColumns.read($0) }.joined(separator: ", ")) FROM events WHERE (\(condition))" + (rowids == nil ? "" : " AND rowid = ?")
        try queue.read { db in
            let statement = try db.makeStatement(sql: sql)
            let row = Cursor(statement: statement.sqliteStatement)
            guard let rowids else {
                try statement.setArguments(StatementArguments(arguments))
                while try Self.step(row.statement, db, path: path) { try body(row) }
                return
            }
            for rowid in rowids {
                try statement.setArguments(StatementArguments(arguments + [rowid]))
                let row = Cursor(statement: row.statement, rowid: rowid)
                while try Self.step(row.statement, db, path: path) { try body(row) }
                sqlite3_reset(row.statement)
            }
        }
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

    /// The current row of a read, valid only during the call it is handed to; columns count from 0.
    public struct Cursor {
        fileprivate let statement: OpaquePointer
        /// The row's rowid, when the read asked for rows by rowid.
        public let rowid: Int64?

        fileprivate init(statement: OpaquePointer, rowid: Int64? = nil) {
            self.statement = statement
            self.rowid = rowid
        }

        /// What column `c` holds.
        public func type(_ c: Int32) -> ValueType {
            switch sqlite3_column_type(statement, c) {
            case SQLITE_INTEGER: .integer
            case SQLITE_FLOAT: .real
            case SQLITE_NULL: .null
            default: .text
            }
        }

        public func isNull(_ c: Int32) -> Bool { sqlite3_column_type(statement, c) == SQLITE_NULL }
        public func double(_ c: Int32) -> Double { sqlite3_column_double(statement, c) }
        public func int64(_ c: Int32) -> Int64 { sqlite3_column_int64(statement, c) }

        /// Calls `body` with the column's text bytes (`nil` for NULL), valid only during the call.
        public func withText<T>(_ c: Int32, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
            guard sqlite3_column_type(statement, c) != SQLITE_NULL else { return try body(nil) }
            let pointer = sqlite3_column_text(statement, c)
            let count = Int(sqlite3_column_bytes(statement, c))
            return try body(UnsafeRawBufferPointer(start: pointer, count: count))
        }

        /// The storage classes a column value can have here (blobs read as text).
        public enum ValueType: UInt8 {
            case integer = 1, real = 2, text = 3, null = 5
        }
    }
}

/// Which rows of `events` a read takes: the store's side of an export's selection.
public struct EventFilter: Sendable, Hashable {
    public var since: Int64?
    public var until: Int64?
    public var minMagnitude: Double?
    public var bbox: BoundingBox?
    public var eventTypes: [String]

    /// Rows with an origin time in `since..<until`, a magnitude of at least `minMagnitude`, inside
    /// `bbox`, of one of `eventTypes` (every type when empty); never deleted ones, and never one
    /// whose position is not a number within -180…180, -90…90 (see `StoreRows.misplacedRows()`).
    public init(since: Int64? = nil, until: Int64? = nil, minMagnitude: Double? = nil, bbox: BoundingBox? = nil, eventTypes: [String] = []) {
        self.since = since
        self.until = until
        self.minMagnitude = minMagnitude
        self.bbox = bbox
        self.eventTypes = eventTypes
    }

    /// The SQL condition over the columns of `table`, with its arguments in order.
    public func condition(table: String) -> (String, [DatabaseValueConvertible]) {
        let t = table + "."
        var parts = ["\(t)time IS NOT NULL", "\(t)longitude BETWEEN -180 AND 180", "\(t)latitude BETWEEN -90 AND 90",
                     "(\(t)status IS NULL OR \(t)status <> 'deleted')"]
        var arguments: [DatabaseValueConvertible] = []
        if let since { parts.append("\(t)time >= ?"); arguments.append(since) }
        if let until { parts.append("\(t)time < ?"); arguments.append(until) }
        if let minMagnitude { parts.append("\(t)mag >= ?"); arguments.append(minMagnitude) }
        if let box = bbox {
            parts.append("\(t)latitude BETWEEN ? AND ?")
            arguments += [box.south, box.north]
            if box.crossesAntimeridian {
                parts.append("(\(t)longitude >= ? OR \(t)longitude <= ?)")
            } else {
                parts.append("\(t)longitude BETWEEN ? AND ?")
            }
            arguments += [box.west, box.east]
        }
        if !eventTypes.isEmpty {
            parts.append("\(t)event_type IN (\(eventTypes.map { _ in "?" }.joined(separator: ", ")))")
            arguments += eventTypes.map { $0 as DatabaseValueConvertible }
        }
        return (parts.joined(separator: " AND "), arguments)
    }
}

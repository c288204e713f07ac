import GRDB
import GRDBSQLite

/// A prepared statement bound and stepped through the sqlite3 C API.
///
/// The indexer's hot loop binds about forty values per event; GRDB's per-value
/// binding costs about 2 µs a row, the raw API a fraction of that. Only the bulk
/// loops (the store's rows, the bundle databases' rows and packed R-trees) go
/// through here; everything else uses GRDB.
public struct RawStatement {
    /// Keeps the statement (and GRDB's bookkeeping of it) alive.
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }

    /// Prepares `sql` on `db`.
    public init(_ db: Database, _ sql: String) throws {
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds parameter `index` (from 1) to `value` (copied), or NULL; likewise the overloads below.
    public func bind(_ index: Int32, _ value: String?) {
        guard var value else { sqlite3_bind_null(handle, index); return }
        value.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    _ = sqlite3_bind_text(handle, index, $0, Int32(bytes.count), sqliteTransient)
                }
            } else {
                _ = sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
        }
    }

    public func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    public func bind(_ index: Int32, _ value: Int?) {
        bind(index, value.map(Int64.init))
    }

    public func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    public func bind(_ index: Int32, blob: UnsafeRawBufferPointer) {
        sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), sqliteTransient)
    }

    /// Binds text without a copy (`SQLITE_STATIC`): the bytes must stay where they are, unchanged,
    /// until the statement has run and `clearBindings()` is called. `text.baseAddress` must not be
    /// nil (that would bind NULL), also for empty text.
    public func bind(_ index: Int32, borrowedText text: UnsafeBufferPointer<UInt8>) {
        text.baseAddress!.withMemoryRebound(to: CChar.self, capacity: text.count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(text.count), nil)
        }
    }

    /// Binds a BLOB without a copy, under the terms of `bind(_:borrowedText:)`.
    public func bind(_ index: Int32, borrowedBlob blob: UnsafeBufferPointer<UInt8>) {
        sqlite3_bind_blob(handle, index, blob.baseAddress, Int32(blob.count), nil)
    }

    /// Sets every parameter to NULL, so that no binding refers to memory that may go away.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Runs a statement that answers no rows, then resets it.
    public func run() throws {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code) }
    }

    /// Steps to the next row; false at the end. Call `reset()` when done reading.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        guard code == SQLITE_DONE else {
            let failure = error(code)
            sqlite3_reset(handle)
            throw failure
        }
        return false
    }

    /// The rowid of the row the last INSERT on this connection made.
    public var lastInsertRowid: Int64 {
        sqlite3_last_insert_rowid(sqlite3_db_handle(handle))
    }

    /// Makes the statement ready to run again (its bindings stay).
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Column `column` (from 0) of the current row, as an integer.
    public func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// Column `column` (from 0) of the current row, as text (`nil` for NULL).
    public func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code),
                      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                      sql: statement.sql)
    }
}

extension RawStatement {
    /// Prepares `sql` on `db` and runs it once per item of `items`, `bind` binding the item.
    public static func run<S: Sequence>(_ db: Database, _ sql: String, for items: S,
                                        bind: (RawStatement, S.Element) throws -> Void) throws {
        let statement = try RawStatement(db, sql)
        for item in items {
            try bind(statement, item)
            try statement.run()
        }
        statement.clearBindings()
    }

    /// Prepares `INSERT INTO table (columns) VALUES (?, …), (?, …), …` with `rows` rows: the bulk
    /// loops insert a few hundred rows per statement, a third to a half of the time of one
    /// statement per row. Row r's column c is parameter `r * columns.count + c + 1`.
    public static func insert(_ db: Database, into table: String, columns: [String], rows: Int) throws -> RawStatement {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return try RawStatement(db, "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
                                + Array(repeating: row, count: rows).joined(separator: ", "))
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound value (a C macro Swift cannot import).
private let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

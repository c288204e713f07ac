import Foundation
#if canImport(SQLite3)
import SQLite3
#else
import CSQLite3
#endif

/// One connection to an SQLite file, through SQLite's C interface: the little this library
/// needs (run SQL, read rows, bind values), so that an app adds no database library to use it.
///
/// Every connection refuses what a published file could abuse: `trusted_schema` off (a view
/// or trigger of a file cannot call functions with side effects), no extension loading, and
/// files attached read-only by URI.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// The file, for messages.
    let path: String

    /// Opens the file at `url`: read-only and `immutable` (the bundle files of an installed
    /// version never change), or read-write.
    init(_ url: URL, readOnly: Bool) throws {
        path = url.path
        let uri = Self.uri(url, readOnly: readOnly, immutable: readOnly)
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(uri, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "status \(status)"
            sqlite3_close_v2(handle)
            handle = nil
            throw SQLiteError(path: path, message: message)
        }
        try execute("PRAGMA trusted_schema = OFF")
        // An installed version is read in place through the page cache of the system (no copy per
        // page read: a quake's row lies on a page of its own, found by its feature id).
        if readOnly { try execute("PRAGMA mmap_size = \(Self.mappedBytes)") }
    }

    /// The most bytes of a read-only file SQLite maps into memory.
    static let mappedBytes = 1 << 32

    deinit { sqlite3_close_v2(handle) }

    /// A `file:` URI for `url` (its path percent-encoded: `?` and `#` in a path are not a query).
    static func uri(_ url: URL, readOnly: Bool, immutable: Bool = false) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let path = url.standardizedFileURL.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? url.path
        return "file:\(path)?mode=\(readOnly ? "ro" : "rw")\(immutable ? "&immutable=1" : "")"
    }

    /// Runs `sql` (one or more statements without results).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(path: path, message: message)
        }
    }

    /// Runs one statement with `arguments` bound to its `?`s, calling `row` for each result row.
    func query(_ sql: String, _ arguments: [SQLiteValue] = [], row: (SQLiteRow) throws -> Void) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let value): sqlite3_bind_int64(statement, position, value)
            case .real(let value): sqlite3_bind_double(statement, position, value)
            case .text(let value): sqlite3_bind_text(statement, position, value, -1, Self.transient)
            }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: try row(SQLiteRow(statement: statement))
            case SQLITE_DONE: return
            default: throw SQLiteError(path: path, message: String(cString: sqlite3_errmsg(handle)))
            }
        }
    }

    /// The rows of a query, each mapped by `map`.
    func rows<T>(_ sql: String, _ arguments: [SQLiteValue] = [], _ map: (SQLiteRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try query(sql, arguments) { rows.append(try map($0)) }
        return rows
    }

    /// The first column of the first row, as text (nil when there is no row or it is NULL).
    func text(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> String? {
        try rows(sql, arguments) { $0.text(0) }.first ?? nil
    }

    /// The first column of the first row, as an integer (nil when there is no row or it is NULL).
    func integer(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int64? {
        try rows(sql, arguments) { $0.integer(0) }.first ?? nil
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw SQLiteError(path: path, message: String(cString: sqlite3_errmsg(handle)))
        }
        return statement
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// The current row of a statement being stepped (valid only inside the callback).
struct SQLiteRow {
    fileprivate let statement: OpaquePointer?

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func integer(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(statement, column) }

    func real(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        guard !isNull(column), let text = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: text)
    }
}

/// An SQLite failure, naming the file.
struct SQLiteError: Error, CustomStringConvertible {
    let path: String
    let message: String

    var description: String { "\(path): \(message)" }
}

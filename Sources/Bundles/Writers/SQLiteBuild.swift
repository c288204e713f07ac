import Foundation
import GRDB
import GRDBSQLite
import QuakeCommon

/// Builds SQLite files of a bundle so that the same content gives the same bytes:
/// a fresh file, a fixed page size, no journal (the file sits in an unpublished
/// version directory until it is complete, so a crash leaves only debris), rows
/// inserted in a fixed order, no timestamps anywhere.
enum SQLiteBuild {
    /// Page size of every bundle database.
    static let pageSize = 4096

    /// Creates a new database file at `url` (replacing any) ready for bulk loading.
    static func create(_ url: URL, label: String) throws -> DatabaseQueue {
        try? FileManager.default.removeItem(at: url)
        return try open(url, label: label, pageSize: pageSize)
    }

    /// Opens the database file at `url` (an unpublished one: no journal, no syncing) for bulk changes.
    static func open(_ url: URL, label: String) throws -> DatabaseQueue {
        try open(url, label: label, pageSize: nil)
    }

    private static func open(_ url: URL, label: String, pageSize: Int?) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = label
        configuration.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            if let pageSize { try db.execute(sql: "PRAGMA page_size = \(pageSize)") }
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "PRAGMA cache_size = -8192")  // 8 MB: the export's memory budget is shared
        }
        return queue
    }

    /// Runs `statement` once per item of `items`, binding through the C API (GRDB's per-row
    /// binding costs about 2 µs, which matters at a million rows).
    static func executeMany<S: Sequence>(_ db: Database, sql: String, _ items: S,
                                         bind: (OpaquePointer, S.Element) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        let s = statement.sqliteStatement
        for item in items {
            sqlite3_reset(s)
            try bind(s, item)
            let rc = sqlite3_step(s)
            guard rc == SQLITE_DONE else {
                throw QuakeBakeError("SQLite: \(String(cString: sqlite3_errmsg(db.sqliteConnection))) in `\(sql)`")
            }
        }
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
    }

    /// SQLITE_TRANSIENT: SQLite copies bound bytes before the call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `bytes` as a blob.
    static func bindBlob(_ s: OpaquePointer, _ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = sqlite3_bind_blob(s, index, $0.baseAddress, Int32($0.count), transient) }
    }

    /// Binds `text` as UTF-8 text.
    static func bindText(_ s: OpaquePointer, _ index: Int32, _ text: String) {
        _ = sqlite3_bind_text(s, index, text, -1, transient)
    }

    /// Flushes the file to disk (after the queue is closed).
    static func fsync(_ url: URL) {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { _ = Foundation.fsync(fd); close(fd) }
    }
}

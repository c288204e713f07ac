import Foundation
import GRDB
import QuakeCommon

/// Builds SQLite files of a bundle so that the same content gives the same bytes:
/// a fresh file, a fixed page size, no journal (the file sits in an unpublished
/// version directory until it is complete, so a crash leaves only debris), rows
/// inserted in a fixed order, no timestamps anywhere.
enum SQLiteBuild {
    /// Page size of the app database (and its staging file). 16 KB rather than SQLite's 4 KB:
    /// a quarter of the pages for SQLite to allocate, balance and write, so an incremental
    /// export makes it in two thirds of the time (440k events: R-tree 0.65 -> 0.42 s, rows and
    /// indexes 1.08 -> 0.64 s of CPU; 8 and 32 KB measured slower than 16, 64 KB slower still),
    /// and the file is a little smaller. Phones read any page size; an R-tree node stays
    /// 51 cells (SQLite's limit), whatever the page.
    static let pageSize = 16384

    /// Page size of the files whose size counts more than their build time: `quakes.mbtiles`,
    /// whose every tile ends in a partly used page (16 KB pages: 47.8 -> 48.8 MB at 440k, no
    /// faster), and the delta files, small and downloaded (the delta after 100 changed events
    /// 0.09 -> 0.26 MB with 16 KB pages).
    static let compactPageSize = 4096

    /// Creates a new database file at `url` (replacing any) with pages of `pageSize` bytes, ready for bulk loading.
    static func create(_ url: URL, label: String, pageSize: Int = pageSize) throws -> DatabaseQueue {
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

    /// Whether the database file at `url`, made by patching an earlier one, is still about as
    /// small as the same content written whole: at most `unusedShare` of its bytes unused (free
    /// pages, and the room left in used pages as SQLite's `dbstat` table counts it; where the
    /// SQLite library lacks that table, the free pages alone). A patch splits a page a changed
    /// row or tile no longer fits, and leaves two part-filled ones; past that share the caller
    /// writes the file whole again, compact. (Reading `dbstat` visits every page: some 40 ms
    /// for 130 MB in the page cache, where the copy just made is.)
    static func isCompact(_ url: URL, unusedShare: Double) throws -> Bool {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? pages
            // The room in a table or index of one page (`info`, an empty or small `details`) is the
            // same whether the file is patched or written whole: not counted.
            let inPages = (try? Int.fetchOne(db, sql: "SELECT sum(unused) FROM dbstat WHERE NOT (pagetype = 'leaf' AND path = '/')")) ?? 0
            return Double(free * pageSize + inPages) <= unusedShare * Double(pages * pageSize)
        }
    }

    /// Flushes the file to disk (after the queue is closed).
    static func fsync(_ url: URL) {
        let fd = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { _ = Foundation.fsync(fd); close(fd) }
    }
}

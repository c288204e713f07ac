import Foundation
import GRDB
import Testing
import TestSupport

/// `ExportHelpers.sameSQLiteContent`, on which the incremental export tests' "byte for byte as a
/// full export" rests for the patched files: the same rows in another page layout are the same;
/// a changed value, a row twice, a value of another type, a pragma or an R-tree entry are not.
@Suite struct SQLiteContentTests {
    static let schema = """
        CREATE TABLE events (id TEXT PRIMARY KEY NOT NULL, mag REAL, place TEXT);
        CREATE TABLE info (key TEXT NOT NULL, value);
        CREATE VIRTUAL TABLE events_rtree USING rtree(id, min_x, max_x, min_y, max_y);
        """

    /// A file of `rows` (id, mag, place) inserted in the given order, `info` rows and an R-tree entry per event.
    static func file(_ directory: TemporaryDirectory, _ name: String, rows: [(String, Double, String)], info: [DatabaseValue] = [1.databaseValue],
                     userVersion: Int = 3, shift: Double = 0) throws -> URL {
        let url = directory.path(name)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: schema + "PRAGMA user_version = \(userVersion);")
            for (id, mag, place) in rows { try db.execute(sql: "INSERT INTO events VALUES (?, ?, ?)", arguments: [id, mag, place]) }
            for value in info { try db.execute(sql: "INSERT INTO info VALUES ('k', ?)", arguments: [value]) }
            try db.execute(sql: "INSERT INTO events_rtree SELECT rowid, mag, mag + ?, 0, 1 FROM events", arguments: [shift])
        }
        try queue.close()
        return url
    }

    static let rows = (0..<500).map { ("us\($0)", Double($0 % 70) / 10, String(repeating: "place \($0) ", count: 1 + $0 % 9)) }

    @Test func theSameRowsInAnotherLayoutAreTheSameAndEachDifferenceIsSeen() throws {
        let directory = TemporaryDirectory("sqlite-content")
        let base = try Self.file(directory, "base.sqlite", rows: Self.rows)
        // The same content in another layout: a third of the places grown past their pages and
        // cut back, then a compact copy of that.
        let patched = directory.path("patched.sqlite"), compact = directory.path("compact.sqlite")
        try FileManager.default.copyItem(at: base, to: patched)
        try DatabaseQueue(path: patched.path).writeWithoutTransaction { db in
            try db.execute(sql: """
                UPDATE events SET place = place || printf('%.3000c', '#') WHERE rowid % 3 = 0;
                UPDATE events SET place = substr(place, 1, length(place) - 3000) WHERE rowid % 3 = 0;
                VACUUM INTO ?
                """, arguments: [compact.path])
        }
        for url in [patched, compact] {
            #expect(try Data(contentsOf: url) != Data(contentsOf: base))
            #expect(try ExportHelpers.sameSQLiteContent(base, url), "\(url.lastPathComponent)")
        }

        var changed = Self.rows
        changed[250].1 += 0.1
        let cases: [(String, URL)] = [
            ("a changed value", try Self.file(directory, "changed.sqlite", rows: changed)),
            ("an event fewer", try Self.file(directory, "fewer.sqlite", rows: Array(Self.rows.dropLast()))),
            ("a row twice", try Self.file(directory, "twice.sqlite", rows: Self.rows, info: [1.databaseValue, 1.databaseValue])),
            ("text for an integer", try Self.file(directory, "text.sqlite", rows: Self.rows, info: ["1".databaseValue])),
            ("another user_version", try Self.file(directory, "version.sqlite", rows: Self.rows, userVersion: 4)),
            ("another R-tree box", try Self.file(directory, "rtree.sqlite", rows: Self.rows, shift: 1)),
        ]
        for (what, url) in cases {
            #expect(try !ExportHelpers.sameSQLiteContent(base, url), "\(what)")
            #expect(try !ExportHelpers.sameSQLiteContent(url, base), "\(what), the other way")
        }
        // 1 and 1.0 are the same value to SQLite (and were to the GRDB comparison before).
        #expect(try ExportHelpers.sameSQLiteContent(base, Self.file(directory, "real.sqlite", rows: Self.rows, info: [(1.0).databaseValue])))
    }
}

import Foundation
import GRDB
import GRDBSQLite
import QuakeCommon

/// Fills the app database's `events` table from the previous bundle's app database and the
/// store rows that changed since, instead of copying every row out of the store.
///
/// A bundle's `events` rows are numbered 1…n in id order. The previous bundle's rows,
/// minus those gone or changed, plus the new and changed rows of the store, inserted in id
/// order, are the rows a full copy inserts, with the same values; so the table, and the
/// file, come out the same. Reading the previous table in rowid order costs about half of
/// reading the store through its id index.
extension AppDatabaseWriter {
    /// Inserts the rows in id order; returns false, having inserted nothing, when the previous
    /// database is not one this merge understands (the caller then copies from the store).
    static func mergeRows(_ db: Database, previous: URL, changes: SelectionRead.Changes, selectionCondition: String,
                          arguments: [DatabaseValueConvertible]) throws -> Bool {
        try db.execute(sql: "ATTACH DATABASE ? AS previous", arguments: [previous.path])
        defer { try? db.execute(sql: "DETACH DATABASE previous") }
        let previousColumns = try Row.fetchAll(db, sql: "PRAGMA previous.table_info(events)").map { $0["name"] as String }
        guard previousColumns == columns, try Int.fetchOne(db, sql: "PRAGMA previous.user_version") == 1 else { return false }
        let rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM previous.events") ?? 0
        guard try Int64.fetchOne(db, sql: "SELECT ifnull(max(rowid), 0) FROM previous.events") == rows else { return false }

        var gone: [Int64] = []
        let findID = try db.makeStatement(sql: "SELECT rowid FROM previous.events WHERE id = ?")
        for id in changes.gone {
            guard let rowid = try Int64.fetchOne(findID, arguments: [id]) else { return false }
            gone.append(rowid)
        }
        gone.sort()
        let incoming = changes.incoming.sorted { Array($0.id.utf8).lexicographicallyPrecedes(Array($1.id.utf8)) }
        let before = try db.makeStatement(sql: "SELECT rowid FROM previous.events WHERE id < ? ORDER BY id DESC LIMIT 1")
        let positions = try incoming.map { try Int64.fetchOne(before, arguments: [$0.id]) ?? 0 }

        let copyRange = try db.makeStatement(sql: "INSERT INTO events SELECT * FROM previous.events WHERE rowid BETWEEN ? AND ?")
        let list = columns.map { "s.\($0)" }.joined(separator: ", ")
        let insert = try db.makeStatement(sql: """
            INSERT INTO events (\(columns.joined(separator: ", "))) SELECT \(list) FROM store.events AS s
             WHERE (\(selectionCondition)) AND s.rowid = ?
            """)
        var next: Int64 = 1
        var goneIndex = 0
        /// Copies the previous rows next…last but the gone ones.
        func copy(through last: Int64) throws {
            while next <= last {
                while goneIndex < gone.count && gone[goneIndex] < next { goneIndex += 1 }
                if goneIndex < gone.count && gone[goneIndex] == next {
                    next += 1
                    continue
                }
                let end = goneIndex < gone.count ? min(last, gone[goneIndex] - 1) : last
                try copyRange.execute(arguments: [next, end])
                next = end + 1
            }
        }
        for (row, position) in zip(incoming, positions) {
            try copy(through: position)
            try insert.execute(arguments: StatementArguments(arguments + [row.rowid]))
        }
        try copy(through: rows)
        return true
    }
}

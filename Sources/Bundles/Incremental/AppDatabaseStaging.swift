import Foundation
import GRDB
import QuakeBundleFormat
import QuakeCommon
import QuakeSQLite
import QuakeStore
import QuakeTiles

/// The staging file of the app database: an `events` table with the final file's indexes,
/// from which `AppDatabaseWriter` transfers the rows. Rows may get there in any order and
/// the file may hold other tables: only the rows of `events` count. A copy of the previous
/// bundle's file, patched (`patch`), is a whole app database, and becomes the new one while
/// it is compact.
struct AppDatabaseStaging {
    let store: URL
    let selection: Selection
    let table: EventTable
    let featureIDs: FeatureIDs
    let url: URL

    /// Inserts the store rows matching `condition` (on `s`, the store's events), each under the
    /// feature id `rowid` gives.
    private static func insertFromStore(rowid: String, where condition: String) -> String {
        let columns = StoreColumns.contractNames
        return "INSERT INTO events (rowid, \(columns.joined(separator: ", "))) SELECT \(rowid), "
            + columns.map { StoreColumns.read($0, table: "s") }.joined(separator: ", ") + " FROM store.events AS s WHERE \(condition)"
    }

    /// Fills the staging file from the store: the selected rows, sorted by feature id (SQLite's
    /// sorter reads the store once, in its order, and appending is the fast way into a b-tree),
    /// then the indexes.
    func copyFromStore() throws {
        let queue = try SQLiteBuild.create(url, label: "export.app-staging")
        try queue.writeWithoutTransaction { db in
            db.add(function: DatabaseFunction("quake_feature_id", argumentCount: 1, pure: true) { [featureIDs] values in
                String.fromDatabaseValue(values[0]).map { Int64(featureIDs.number(id: $0)) }
            })
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [store.path])
            try db.inTransaction {
                try db.execute(sql: AppDatabaseWriter.eventsTable)
                let (condition, arguments) = selection.filter.condition(table: "s")
                try db.execute(sql: Self.insertFromStore(rowid: "quake_feature_id(s.id)", where: condition) + " ORDER BY 1",
                               arguments: StatementArguments(arguments))
                for index in AppDatabaseSchema.eventIndexes { try db.execute(sql: index) }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE store")
        }
        try queue.close()
    }

    /// Makes the staging file out of a copy of the previous bundle's app database (at `url`):
    /// without the rows gone or changed since, with the new and changed rows of the store, and
    /// with the rows whose feature id a collision moved (one came or went) renumbered; the
    /// R-tree's rows, the `info` rows and the details follow, so the file holds what a full export's does.
    /// Returns the rows it touched, or nil, leaving no file, when the previous database is not
    /// one this writer made or does not come out with the table's events (the caller then
    /// copies from the store).
    func patch(changes: SelectionRead.Changes, info: AppDatabaseWriter.Info, details: BundleDetails) throws -> DeltaWriter.TouchedRows? {
        let queue = try SQLiteBuild.open(url, label: "export.app-staging")
        var deleted: [String] = [], inserted: [Int64] = []
        let patched = try queue.writeWithoutTransaction { db -> Bool in
            guard try AppDatabaseWriter.hasOwnSchema(db),
                  try Int.fetchOne(db, sql: "PRAGMA user_version") == AppDatabaseWriter.userVersion else { return false }
            let incoming = Set(changes.incoming.map(\.event))
            let renumbered = Set(featureIDs.movedEvents + changes.movedBefore).subtracting(incoming).sorted()
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [store.path])
            try db.inTransaction {
                deleted = changes.gone + (incoming.sorted() + renumbered).map(table.id)
                try RawStatement.run(db, "DELETE FROM events_rtree WHERE id = (SELECT rowid FROM events WHERE id = ?)", for: deleted) { s, id in s.bind(1, id) }
                try RawStatement.run(db, "DELETE FROM events WHERE id = ?", for: deleted) { s, id in s.bind(1, id) }
                try RawStatement.run(db, Self.insertFromStore(rowid: "?", where: "s.rowid = ?"), for: changes.incoming) { s, row in
                    s.bind(1, Int64(featureIDs[row.event]))
                    s.bind(2, row.rowid)
                }
                try RawStatement.run(db, Self.insertFromStore(rowid: "?", where: "s.id = ?"), for: renumbered) { s, event in
                    s.bind(1, Int64(featureIDs[event]))
                    s.bind(2, table.id(event))
                }
                let insertedEvents = changes.incoming.map(\.event) + renumbered
                inserted = insertedEvents.map { Int64(featureIDs[$0]) }
                // The box a packed tree gives each point (the rtree module keeps float32 values as they are).
                let box = "INSERT INTO events_rtree (id, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)"
                try RawStatement.run(db, box, for: insertedEvents) { s, event in
                    let x = PackedRTree.outward(table.longitude[event]), y = PackedRTree.outward(table.latitude[event])
                    s.bind(1, Int64(featureIDs[event]))
                    s.bind(2, Double(x.low)); s.bind(3, Double(x.high))
                    s.bind(4, Double(y.low)); s.bind(5, Double(y.high))
                }
                try info.write(db)
                try AppDatabaseDetails.patch(db, details)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE store")
            // A previous file that does not hold what its bundle's event cache says is rebuilt from the store.
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == table.count
        }
        try queue.close()
        guard patched else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return DeltaWriter.TouchedRows(rowids: inserted, ids: deleted)
    }
}

import Foundation
import GRDB
import Logging
import QuakeCommon
import QuakeSQLite

/// Loading a fresh store fast: the tables first, their indexes after.
///
/// With the spatial index live, SpatiaLite's per-row triggers cost about 100 µs
/// an event. A fresh store (a scratch file nobody else sees until it is renamed
/// into place) therefore loads with the secondary indexes of `events` and
/// `event_ids` and the triggers of `events` set aside, and `events.id` not yet its
/// primary key (`StoreSchema.createForBulkBuild`), then makes the key and recreates
/// the indexes in one sort each, packs the R-tree in bulk (`PackedRTree`) and puts the
/// triggers back exactly as they were, so that later incremental runs keep the
/// spatial index current.
struct BulkBuild {
    /// The `CREATE INDEX` and `CREATE TRIGGER` statements set aside, in schema order, with their table.
    private let suspended: [(type: String, table: String, sql: String)]

    /// Sets aside the secondary indexes and triggers (the spatial index stays, empty).
    init(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE tbl_name IN ('events', 'event_ids') AND type IN ('index', 'trigger') AND sql IS NOT NULL
            ORDER BY rowid
            """)
        for row in rows {
            try db.execute(sql: "DROP \(row["type"] == "index" ? "INDEX" : "TRIGGER") \(String(row["name"] as String).quotedDatabaseIdentifier)")
        }
        suspended = rows.map { (type: $0["type"], table: $0["tbl_name"], sql: $0["sql"]) }
    }

    /// Completes the store: writes `event_ids` from `directory`, recreates the indexes, packs
    /// the spatial index from `points` and restores the triggers. The sorting that needs no
    /// database runs on a second thread while SQLite builds indexes: the id mapping beside
    /// those of `events`, the R-tree's order beside that of `event_ids`, once the mapping's
    /// memory is free (a whole catalog's ids and points at once would double the peak).
    /// `directory` and `points` are emptied.
    func finish(_ db: Database, directory: MemoryIDDirectory, points: PointLog, logger: Logger) throws {
        let sorting = BackgroundWork("quake-store sorting ids") { directory.sortMapping() }
        try Indexer.measure("events.id made the primary key", logger) { try StoreSchema.keyEventIDs(db) }
        try createIndexes(on: "events", db, logger)
        try Indexer.measure("waited for the sorting thread", logger) { try sorting.wait() }
        try Indexer.measure("event_ids written", logger) {
            // 256 rows per statement (one statement per row took three to four times as long:
            // 0.75-0.99 s against 0.23-0.25 s at 440k); a shorter one for the last rows.
            var statements: [Int: RawStatement] = [:]
            try directory.forEachMapping(batch: 256) { pairs in
                let insert = try statements[pairs.count] ?? RawStatement.insert(db, into: "event_ids", columns: ["id", "preferred"], rows: pairs.count)
                statements[pairs.count] = insert
                defer { insert.clearBindings() }  // the bytes are lent for this call only
                for (i, pair) in pairs.enumerated() {
                    insert.bind(Int32(2 * i + 1), borrowedText: pair.id)
                    insert.bind(Int32(2 * i + 2), borrowedText: pair.preferred)
                }
                try insert.run()
            }
        }
        directory.removeAll()
        let packing = BackgroundWork("quake-store packing order") { points.removeAllInPackingOrder() }
        try createIndexes(on: "event_ids", db, logger)
        let order = try Indexer.measure("waited for the packing order", logger) { try packing.wait() }
        try Indexer.measure("R-tree written", logger) {
            try PackedRTree.write(into: "idx_events_geom", db, count: order.rowids.count) { visit in
                for i in order.rowids.indices { try visit(Int64(order.rowids[i]), order.longitudes[i], order.latitudes[i]) }
            }
        }
        for trigger in suspended where trigger.type == "trigger" { try db.execute(sql: trigger.sql) }
    }

    private func createIndexes(on table: String, _ db: Database, _ logger: Logger) throws {
        for index in suspended where index.type == "index" && index.table == table {
            try Indexer.measure(index.sql, logger) { try db.execute(sql: index.sql) }
        }
    }
}

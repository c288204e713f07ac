import Foundation
import GRDB
import GRDBSQLite
import Logging
import QuakeCommon
import QuakeTiles

/// Writes `quakes.sqlite`, the app's own query database: plain SQLite (phones
/// have SQLite with R-tree, not SpatiaLite) holding the selection's events with
/// their detail fields, an `events_rtree` R-tree for bounding-box queries, and
/// indexes on time, magnitude and id.
///
/// ```sql
/// SELECT e.* FROM events e JOIN events_rtree r ON r.id = e.rowid
///  WHERE r.min_lon <= :east AND r.max_lon >= :west AND r.min_lat <= :north AND r.max_lat >= :south
///  ORDER BY e.time DESC;
/// ```
/// Rows are numbered in id order, so the same selection gives the same file.
enum AppDatabaseWriter {
    /// The columns copied from the store, in table order (the store contract minus `geom`).
    static let columns = ["id", "ids", "sources", "types", "time", "updated", "longitude", "latitude", "depth_km", "mag", "mag_type",
                          "place", "status", "event_type", "net", "code", "felt", "cdi", "mmi", "alert", "tsunami", "sig",
                          "nst", "dmin", "rms", "gap", "title", "url"]

    static let schema = """
        CREATE TABLE events (
          id TEXT NOT NULL, ids TEXT, sources TEXT, types TEXT,
          time INTEGER NOT NULL, updated INTEGER, longitude REAL NOT NULL, latitude REAL NOT NULL,
          depth_km REAL, mag REAL, mag_type TEXT, place TEXT, status TEXT, event_type TEXT,
          net TEXT, code TEXT, felt INTEGER, cdi REAL, mmi REAL, alert TEXT, tsunami INTEGER, sig INTEGER,
          nst INTEGER, dmin REAL, rms REAL, gap REAL, title TEXT, url TEXT);
        CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        """

    /// Copies the selected events of the store at `store` (those of `table`) into a new database at `url`, and
    /// returns the file's sha256 (it is built on a core of its own, so it hashes itself there).
    /// Given the previous bundle's database and the rows that changed since it was made, the
    /// unchanged rows are copied from there (see `mergeRows`); the file is the same.
    static func write(store: URL, selection: Selection, table: EventTable, highWaterMark: Int64,
                      previous: (database: URL, changes: SelectionRead.Changes)?, to url: URL, logger: Logger) throws -> String {
        let started = DispatchTime.now()
        var laps: [String] = [], lastCPU = Stopwatch.threadCPUSeconds()
        func lap(_ phase: String) {
            let cpu = Stopwatch.threadCPUSeconds()
            laps.append("\(phase) \(String(format: "%.3f", cpu - lastCPU)) s")
            lastCPU = cpu
        }
        let queue = try SQLiteBuild.create(url, label: "export.app")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = 1")
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [store.path])
            try db.inTransaction {
                try db.execute(sql: schema)
                let (condition, arguments) = SelectionSQL.condition(selection, table: "s")
                if let previous, try mergeRows(db, previous: previous.database, changes: previous.changes,
                                               selectionCondition: condition, arguments: arguments) {
                    lap("rows (merged with the previous bundle's)")
                } else {
                    let list = columns.map { "s.\($0)" }.joined(separator: ", ")
                    try db.execute(sql: "INSERT INTO events (\(columns.joined(separator: ", "))) SELECT \(list) FROM store.events AS s WHERE \(condition) ORDER BY s.id",
                                   arguments: StatementArguments(arguments))
                    lap("rows")
                }
                try db.execute(sql: """
                    CREATE UNIQUE INDEX events_id ON events (id);
                    CREATE INDEX events_time ON events (time);
                    CREATE INDEX events_mag ON events (mag);
                    CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat);
                    """)
                try db.execute(sql: "INSERT INTO info (name, value) VALUES ('schema', '1'), ('store_high_water_mark', ?), ('events', (SELECT count(*) FROM events))",
                               arguments: [String(highWaterMark)])
                lap("indexes")
                try fillRTree(db, table: table)
                lap("R-tree")
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE store")
        }
        try queue.close()
        SQLiteBuild.fsync(url)
        lap("commit and sync")
        let sha256 = try SHA256.hex(fileAt: url)
        lap("sha256")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        logger.debug("built quakes.sqlite in \(String(format: "%.3f", seconds)) s on its own thread; its CPU: \(laps.joined(separator: ", "))")
        return sha256
    }

    /// Writes the packed R-tree straight into the rtree's shadow tables (rows are numbered 1…n).
    /// The points come from the event table in memory (the same events, the same positions):
    /// a row's rowid is the rank of its id, as rows are inserted in id order. Sorting them here
    /// costs less time than an SQL function per row and SQLite's sorter, and less memory than
    /// reading them back from the file.
    private static func fillRTree(_ db: Database, table: EventTable) throws {
        let count = table.count
        guard try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == count else {
            throw QuakeBakeError("quakes.sqlite: the events table does not hold the \(count) selected events")
        }
        var order = table.idOrder()
        var rowids = [UInt32](repeating: 0, count: count)
        for (rank, event) in order.enumerated() { rowids[Int(event)] = UInt32(rank + 1) }
        let keys = (0..<count).map { RTreePacker.key(longitude: table.longitude[$0], latitude: table.latitude[$0]) }
        order.sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : rowids[Int($0)] < rowids[Int($1)] }
        let node = try db.makeStatement(sql: "INSERT OR REPLACE INTO events_rtree_node (nodeno, data) VALUES (?, ?)")
        let leaf = try db.makeStatement(sql: "INSERT INTO events_rtree_rowid (rowid, nodeno) VALUES (?, ?)")
        let parent = try db.makeStatement(sql: "INSERT INTO events_rtree_parent (nodeno, parentnode) VALUES (?, ?)")
        func step(_ statement: Statement) throws {
            let s = statement.sqliteStatement
            guard sqlite3_step(s) == SQLITE_DONE else {
                throw QuakeBakeError("quakes.sqlite: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
            }
            sqlite3_reset(s)
        }
        try RTreePacker.pack(count: count, points: { visit in
            for e in order {
                let event = Int(e)
                try visit(Int64(rowids[event]), table.longitude[event], table.latitude[event])
            }
        }, into: RTreePacker.Sink(
            node: { number, blob in
                sqlite3_bind_int64(node.sqliteStatement, 1, number)
                SQLiteBuild.bindBlob(node.sqliteStatement, 2, blob)
                try step(node)
            },
            leaf: { rowid, number in
                sqlite3_bind_int64(leaf.sqliteStatement, 1, rowid)
                sqlite3_bind_int64(leaf.sqliteStatement, 2, number)
                try step(leaf)
            },
            parent: { number, parentNumber in
                sqlite3_bind_int64(parent.sqliteStatement, 1, number)
                sqlite3_bind_int64(parent.sqliteStatement, 2, parentNumber)
                try step(parent)
            }))
    }
}

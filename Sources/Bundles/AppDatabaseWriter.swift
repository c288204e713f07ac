import Foundation
import GRDB
import GRDBSQLite
import QuakeCommon

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

    /// Copies the selected events of the store at `store` into a new database at `url`.
    static func write(store: URL, selection: Selection, highWaterMark: Int64, to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "export.app")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = 1")
            try db.execute(sql: "ATTACH DATABASE ? AS store", arguments: [store.path])
            try db.inTransaction {
                try db.execute(sql: schema)
                let (condition, arguments) = SelectionSQL.condition(selection, table: "s")
                let list = columns.map { "s.\($0)" }.joined(separator: ", ")
                try db.execute(sql: "INSERT INTO events (\(columns.joined(separator: ", "))) SELECT \(list) FROM store.events AS s WHERE \(condition) ORDER BY s.id",
                               arguments: StatementArguments(arguments))
                try db.execute(sql: """
                    CREATE UNIQUE INDEX events_id ON events (id);
                    CREATE INDEX events_time ON events (time);
                    CREATE INDEX events_mag ON events (mag);
                    CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat);
                    """)
                try db.execute(sql: "INSERT INTO info (name, value) VALUES ('schema', '1'), ('store_high_water_mark', ?), ('events', (SELECT count(*) FROM events))",
                               arguments: [String(highWaterMark)])
                try fillRTree(db)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE store")
        }
        try queue.close()
        SQLiteBuild.fsync(url)
    }

    /// Writes the packed R-tree straight into the rtree's shadow tables (rows are numbered 1…n).
    private static func fillRTree(_ db: Database) throws {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM events") ?? 0
        let key = DatabaseFunction("qb_rtree_key", argumentCount: 2, pure: true) { values in
            RTreePacker.key(longitude: Double.fromDatabaseValue(values[0]) ?? 0, latitude: Double.fromDatabaseValue(values[1]) ?? 0)
        }
        db.add(function: key)
        defer { db.remove(function: key) }
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
        let sorted = try db.makeStatement(sql: "SELECT rowid, longitude, latitude FROM events ORDER BY qb_rtree_key(longitude, latitude), rowid")
        let points: ((Int64, Double, Double) throws -> Void) throws -> Void = { visit in
            let s = sorted.sqliteStatement
            defer { sqlite3_reset(s) }
            while true {
                let rc = sqlite3_step(s)
                if rc == SQLITE_DONE { return }
                guard rc == SQLITE_ROW else { throw QuakeBakeError("quakes.sqlite: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))") }
                try visit(sqlite3_column_int64(s, 0), sqlite3_column_double(s, 1), sqlite3_column_double(s, 2))
            }
        }
        try RTreePacker.pack(count: count, points: points, into: RTreePacker.Sink(
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

import Foundation
import GRDB
import Logging
import QuakeCommon
import QuakeSQLite
import QuakeStore
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
/// A row's rowid is the event's MVT feature id (see `FeatureID`), so a feature tapped on
/// a tile finds its details with `SELECT * FROM events WHERE rowid = :featureID`.
///
/// The rows are first gathered in a staging file (`AppDatabaseStaging`: from the store, or
/// from the previous bundle's database and the rows that changed since; on a thread of its
/// own while the packed R-tree goes into the final file), then copied into the final file
/// with `INSERT INTO events SELECT * FROM staging.events`. Into an empty
/// table with the same indexes, SQLite transfers the rows and the index entries as they
/// are, in order, appended (its "xfer" optimisation): the file depends only on the rows,
/// not on how the staging file came by them, so an incremental export writes the same
/// bytes as a full one without rebuilding the indexes.
enum AppDatabaseWriter {
    /// `PRAGMA user_version` of the files this writer makes (2: rowids are feature ids).
    static let userVersion = 2

    /// The app's `events` table: the store's contract columns (`StoreColumns.contract`), same
    /// names, types and order, so that rows go across with `SELECT *`.
    static let eventsTable = "CREATE TABLE events (\n  " + StoreColumns.contract.map(\.definition).joined(separator: ",\n  ") + ")"

    /// The indexes of `events`, in the final file and in the staging file alike (the transfer needs both).
    static let eventIndexes = [
        "CREATE UNIQUE INDEX events_id ON events (id)",
        "CREATE INDEX events_time ON events (time)",
        "CREATE INDEX events_mag ON events (mag)",
    ]

    /// `eventsTable` and `eventIndexes`, as one script.
    static var eventsSchema: String { ([eventsTable] + eventIndexes).map { $0 + ";\n" }.joined() }

    /// Whether the database open on `db` declares `events` and its indexes exactly as this writer
    /// does (`sqlite_master` keeps each statement's text): only then do its rows go across to a
    /// new file as they are, and make the file a full export makes.
    static func hasOwnEventsSchema(_ db: Database) throws -> Bool {
        let declared = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND sql IS NOT NULL ORDER BY type DESC, sql")
        return declared == [eventsTable] + eventIndexes.sorted()
    }

    /// Copies the selected events of the store at `store` (those of `table`) into a new database at `url`, and
    /// returns the file's sha256 (it is built on a core of its own, so it hashes itself there).
    /// Given a copy of the previous bundle's database and the rows that changed since it was
    /// made, the unchanged rows are taken from there (the copy is used up); the file is the same,
    /// and `touched` says which rows may differ from the previous bundle's (nil: any row may).
    /// `info` holds the schema, the bundle version (the one the file is part of: an app applying
    /// a delta checks that its file is the delta's base), the store's high-water mark, the event
    /// count and, with a recent layer, `recent_since` (ms: the app draws the events from then on itself).
    /// `packingMayStart` returns when the R-tree may be packed (the exporter holds it back
    /// while its own memory peaks).
    static func write(store: URL, selection: Selection, table: EventTable, featureIDs: FeatureIDs, bundleVersion: String, highWaterMark: Int64,
                      recentSince: Int64?, previous: (copy: PreviousAppDatabase, changes: SelectionRead.Changes)?, to url: URL,
                      packingMayStart: () -> Void, logger: Logger) throws -> (sha256: String, touched: DeltaWriter.TouchedRows?) {
        let started = DispatchTime.now()
        var laps: [String] = [], lastCPU = Stopwatch.threadCPUSeconds()
        func lap(_ phase: String) {
            let cpu = Stopwatch.threadCPUSeconds()
            laps.append("\(phase) \(String(format: "%.3f", cpu - lastCPU)) s")
            lastCPU = cpu
        }
        // The staging file is made on a thread of its own while this one packs the R-tree
        // into the final file (it needs only the table); the rows are transferred after.
        let fallback = url.deletingLastPathComponent().appendingPathComponent(".quakes.sqlite.staging" + AtomicFile.temporarySuffix)
        let staging = BackgroundWork("export.app-staging") { () -> (AppDatabaseStaging, String, DeltaWriter.TouchedRows?) in
            let started = Stopwatch.threadCPUSeconds()
            func staging(at url: URL) -> AppDatabaseStaging {
                AppDatabaseStaging(store: store, selection: selection, table: table, featureIDs: featureIDs, url: url)
            }
            if let previous, previous.copy.wait(), let touched = try staging(at: previous.copy.url).patch(changes: previous.changes) {
                return (staging(at: previous.copy.url), "staged rows (the previous bundle's, patched) \(String(format: "%.3f", Stopwatch.threadCPUSeconds() - started)) s", touched)
            }
            let staged = staging(at: fallback)
            try staged.copyFromStore()
            return (staged, "staged rows and indexes (from the store) \(String(format: "%.3f", Stopwatch.threadCPUSeconds() - started)) s", nil)
        }
        defer {
            _ = try? staging.wait()
            previous?.copy.discard()
            try? FileManager.default.removeItem(at: fallback)
        }
        let queue = try SQLiteBuild.create(url, label: "export.app")
        var touched: DeltaWriter.TouchedRows?
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = \(userVersion)")
            try db.inTransaction {
                try db.execute(sql: eventsSchema + """
                    CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
                    CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat);
                    """)
                packingMayStart()
                try fillRTree(db, table: table, featureIDs: featureIDs)
                return .commit
            }
            lap("R-tree")
            let (staged, stagingLap, touchedRows) = try staging.wait()
            touched = touchedRows
            laps.append(stagingLap + " on a thread of its own")
            try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [staged.url.path])
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO events SELECT * FROM staging.events")
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == table.count else {
                    throw QuakeBakeError("quakes.sqlite: the events table does not hold the \(table.count) selected events")
                }
                try db.execute(sql: "INSERT INTO info (name, value) VALUES ('schema', '\(userVersion)'), ('bundle_version', ?), ('store_high_water_mark', ?), ('events', ?)",
                               arguments: [bundleVersion, String(highWaterMark), String(table.count)])
                if let recentSince {
                    try db.execute(sql: "INSERT INTO info (name, value) VALUES ('recent_since', ?)", arguments: [String(recentSince)])
                }
                return .commit
            }
            lap("rows and indexes transferred")
            try db.execute(sql: "DETACH DATABASE staging")
        }
        try queue.close()
        SQLiteBuild.fsync(url)
        lap("commit and sync")
        let sha256 = try SHA256.hex(fileAt: url)
        lap("sha256")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        logger.debug("built quakes.sqlite in \(String(format: "%.3f", seconds)) s on its own thread; its CPU: \(laps.joined(separator: ", "))")
        return (sha256, touched)
    }

    /// Packs the R-tree (`PackedRTree`). The points come from the event table in memory (the
    /// same events, the same positions), each under its feature id, the rowid of its row,
    /// in the Morton order of their Web Mercator positions, the order the export holds its
    /// events in (see `SelectionRead`): sorting them here costs less time than an SQL function
    /// per row and SQLite's sorter, and less memory than reading them back from the file.
    private static func fillRTree(_ db: Database, table: EventTable, featureIDs: FeatureIDs) throws {
        let order = packingOrder(table: table, featureIDs: featureIDs)
        try PackedRTree.write(into: "events_rtree", db, count: table.count) { visit in
            for (k, e) in order.enumerated() {
                table.releaseResident(scanning: k)
                let event = Int(e)
                try visit(Int64(featureIDs[event]), table.longitude[event], table.latitude[event])
            }
        }
    }

    /// The events in the R-tree's packing order: by Morton code of their position, ties by
    /// feature id. (A function of its own: the codes, 8 bytes an event, are let go of before
    /// the packing.)
    private static func packingOrder(table: EventTable, featureIDs: FeatureIDs) -> [UInt32] {
        let keys = (0..<table.count).map {
            table.releaseResident(scanning: $0)
            return Morton.code(x: WebMercator.worldX(longitude: table.longitude[$0]), y: WebMercator.worldY(latitude: table.latitude[$0]))
        }
        return RadixSort.order(by: keys) { featureIDs[$0] < featureIDs[$1] }
    }
}

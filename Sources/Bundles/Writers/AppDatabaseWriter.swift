import Foundation
import GRDB
import Logging
import QuakeBundleFormat
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
/// a tile finds its details with `SELECT * FROM events WHERE rowid = :featureID`, and the
/// quake's ShakeMap, PAGER, moment tensor… (docs/details.md) with
/// `SELECT json FROM details WHERE id = :id` (`AppDatabaseDetails`).
///
/// Built whole (a full export, or a patched file that stopped being compact), the rows are
/// first gathered in a staging file (`AppDatabaseStaging`: from the store, or from the
/// previous bundle's database and the rows that changed since; on a thread of its own
/// while the packed R-tree goes into the final file), then copied into the final file
/// with `INSERT INTO events SELECT * FROM staging.events`. Into an empty
/// table with the same indexes, SQLite transfers the rows and the index entries as they
/// are, in order, appended (its "xfer" optimisation): a file built whole depends only on
/// the rows, not on how the staging file came by them.
///
/// An incremental export patches a copy of the previous bundle's file instead (its rows, its
/// R-tree's, its `info`), as long as that stays compact: the file then holds the same rows,
/// R-tree entries and schema as a full export's, not the same bytes (pages are laid out by
/// the history of changes). The same store over the same previous bundle gives the same bytes.
enum AppDatabaseWriter {
    /// `PRAGMA user_version` of the files this writer makes (2: rowids are feature ids; 3: the
    /// `details` table).
    static let userVersion = 3

    /// The app's `events` table (`AppDatabaseSchema.events`): the store's contract columns
    /// (`StoreColumns.contract`), same names, types and order, so that rows go across with `SELECT *`.
    static let eventsTable = AppDatabaseSchema.eventsTable

    /// `eventsTable` and its indexes (`AppDatabaseSchema.eventIndexes`: in the final file and in
    /// the staging file alike, the transfer needs both), as one script.
    static var eventsSchema: String { ([eventsTable] + AppDatabaseSchema.eventIndexes).map { $0 + ";\n" }.joined() }

    /// Whether the database open on `db` declares `events` and its indexes exactly as this writer
    /// does (`sqlite_master` keeps each statement's text): only then do its rows go across to a
    /// new file as they are, and make the file a full export makes.
    static func hasOwnEventsSchema(_ db: Database) throws -> Bool {
        let declared = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'events' AND sql IS NOT NULL ORDER BY type DESC, sql")
        return declared == [eventsTable] + AppDatabaseSchema.eventIndexes.sorted()
    }

    /// Whether the database open on `db` is one this writer made: `events` as `hasOwnEventsSchema`
    /// says, `info` and `events_rtree` as `write` declares them.
    static func hasOwnSchema(_ db: Database) throws -> Bool {
        let others = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('details', 'info', 'events_rtree') ORDER BY name")
        return try hasOwnEventsSchema(db) && others == [AppDatabaseSchema.detailsTable, AppDatabaseSchema.rtreeTable, AppDatabaseSchema.infoTable]
    }

    /// The `info` rows: the schema, the bundle version (the one the file is part of: an app
    /// applying a delta checks that its file is the delta's base), the store's high-water mark,
    /// the event count and, with a recent layer, `recent_since` (ms: the app draws the events
    /// from then on itself).
    struct Info: Sendable {
        let bundleVersion: String
        let highWaterMark: Int64
        let events: Int
        let recentSince: Int64?

        /// Replaces the rows of `info` with these.
        func write(_ db: Database) throws {
            try db.execute(sql: "DELETE FROM info")
            try db.execute(sql: "INSERT INTO info (name, value) VALUES (?, ?), (?, ?), (?, ?), (?, ?)",
                           arguments: [AppDatabaseSchema.Info.schema, String(userVersion), AppDatabaseSchema.Info.bundleVersion, bundleVersion,
                                       AppDatabaseSchema.Info.storeHighWaterMark, String(highWaterMark), AppDatabaseSchema.Info.events, String(events)])
            if let recentSince {
                try db.execute(sql: "INSERT INTO info (name, value) VALUES (?, ?)", arguments: [AppDatabaseSchema.Info.recentSince, String(recentSince)])
            }
        }
    }

    /// How much of a patched file may be unused before it is written whole again (`SQLiteBuild.isCompact`):
    /// one written whole leaves under 1% unused.
    static let compactUnusedShare = 0.125

    /// Makes the app database of the selected events of the store at `store` (those of `table`)
    /// at `url`, and returns the file's sha256 (it is made on a core of its own, so it hashes
    /// itself there) and, when it was made from the previous bundle's, the rows that may differ
    /// from that one's (nil: any row may).
    ///
    /// Given a copy of the previous bundle's database and the rows that changed since it was
    /// made, the copy is patched (`AppDatabaseStaging.patch`: its rows, its R-tree's and its
    /// `info` become those a full export writes) and, while it is still compact
    /// (`SQLiteBuild.isCompact`), it is the new file: an incremental export writes a few rows, not the whole
    /// file. Otherwise the file is built whole (`build`), from the patched copy or from the
    /// store, and comes out compact and the same, byte for byte, whatever it was built from.
    /// `packingMayStart` returns when the R-tree may be packed (the exporter holds it back
    /// while its own memory peaks).
    static func write(store: URL, selection: Selection, table: EventTable, featureIDs: FeatureIDs, info: Info, details: BundleDetails,
                      previous: (copy: PreviousFileCopy, changes: SelectionRead.Changes)?, to url: URL,
                      packingMayStart: () -> Void, logger: Logger) throws -> (sha256: String, touched: DeltaWriter.TouchedRows?) {
        let started = DispatchTime.now()
        var laps = Laps()
        @Sendable func staging(at url: URL) -> AppDatabaseStaging {
            AppDatabaseStaging(store: store, selection: selection, table: table, featureIDs: featureIDs, url: url)
        }
        defer { previous?.copy.discard() }
        var touched: DeltaWriter.TouchedRows?, patched: AppDatabaseStaging?
        if let previous, previous.copy.wait() {
            let copy = staging(at: previous.copy.url)
            touched = try copy.patch(changes: previous.changes, info: info, details: details)
            if touched != nil { patched = copy }
            laps.lap(touched == nil ? "the previous bundle's file not patched (not one this writer made, or not the cached events)" : "patched the previous bundle's file")
        }
        let compact = try patched.map { try SQLiteBuild.isCompact($0.url, unusedShare: compactUnusedShare) } ?? false
        if patched != nil { laps.lap(compact ? "kept it (still compact)" : "written whole again (too much of it unused)") }
        if let previous, patched != nil, compact {
            try previous.copy.move(to: url)
        } else {
            try build(staged: patched, fromStore: { staging(at: $0) }, table: table, featureIDs: featureIDs, info: info,
                      details: details, to: url, packingMayStart: packingMayStart, laps: &laps)
        }
        SQLiteBuild.fsync(url)
        laps.lap("sync")
        let sha256 = try SHA256.hex(fileAt: url)
        laps.lap("sha256")
        logger.debug("made \(BundleFileName.appDatabase) in \(String(format: "%.3f", Stopwatch.seconds(since: started))) s on its own thread; its CPU: \(laps.text)")
        return (sha256, touched)
    }

    /// Builds the file whole at `url`: the packed R-tree, then the rows of a staging file,
    /// `staged` or one filled from the store (`fromStore` makes it at the URL given) on a thread
    /// of its own while the R-tree is packed, transferred (SQLite's "xfer" optimisation: see
    /// the type's comment), then `info` and the details.
    private static func build(staged: AppDatabaseStaging?, fromStore: @escaping @Sendable (URL) -> AppDatabaseStaging,
                              table: EventTable, featureIDs: FeatureIDs, info: Info, details: BundleDetails, to url: URL,
                              packingMayStart: () -> Void, laps: inout Laps) throws {
        let fallback = url.deletingLastPathComponent().appendingPathComponent("." + BundleFileName.appDatabase + ".staging" + AtomicFile.temporarySuffix)
        let staging = BackgroundWork("export.app-staging") { () -> (AppDatabaseStaging, String?) in
            if let staged { return (staged, nil) }
            let started = Stopwatch.threadCPUSeconds()
            let fresh = fromStore(fallback)
            try fresh.copyFromStore()
            return (fresh, "staged rows and indexes (from the store) \(String(format: "%.3f", Stopwatch.threadCPUSeconds() - started)) s on a thread of its own")
        }
        defer {
            _ = try? staging.wait()
            try? FileManager.default.removeItem(at: fallback)
        }
        let queue = try SQLiteBuild.create(url, label: "export.app")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = \(userVersion)")
            try db.inTransaction {
                try db.execute(sql: eventsSchema + AppDatabaseSchema.infoTable + ";\n" + AppDatabaseSchema.rtreeTable + ";\n" + AppDatabaseSchema.detailsTable + ";\n")
                packingMayStart()
                try fillRTree(db, table: table, featureIDs: featureIDs)
                return .commit
            }
            laps.lap("R-tree")
            let (staged, stagingLap) = try staging.wait()
            if let stagingLap { laps.note(stagingLap) }
            try db.execute(sql: "ATTACH DATABASE ? AS staging", arguments: [staged.url.path])
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO events SELECT * FROM staging.events")
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == table.count else {
                    throw QuakeBakeError("\(BundleFileName.appDatabase): the events table does not hold the \(table.count) selected events")
                }
                try info.write(db)
                try AppDatabaseDetails.fill(db, details)
                return .commit
            }
            laps.lap("rows and indexes transferred, details written")
            try db.execute(sql: "DETACH DATABASE staging")
        }
        try queue.close()
    }

    /// The CPU time of this thread per phase, for the debug line.
    struct Laps {
        private var parts: [String] = []
        private var last = Stopwatch.threadCPUSeconds()

        /// Ends a phase named `phase`.
        mutating func lap(_ phase: String) {
            let cpu = Stopwatch.threadCPUSeconds()
            parts.append("\(phase) \(String(format: "%.3f", cpu - last)) s")
            last = cpu
        }

        /// Adds a note that takes no time of this thread.
        mutating func note(_ text: String) { parts.append(text) }

        var text: String { parts.joined(separator: ", ") }
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

import Foundation
import GRDB
import Logging
import QuakeBundleFormat
import QuakeCommon
import QuakeSQLite
import QuakeTiles

/// What an app that holds an older bundle version downloads to reach the new one.
///
/// For each base version N, the new version's directory holds:
/// - `deltas/<N>.mbtiles`: an MBTiles 1.3 file with the new version's `metadata`, the tiles
///   that are new or changed since N (the same `tile_data` bytes as `quakes.mbtiles`), and
///   `deleted_tiles(zoom_level, tile_column, tile_row)` (TMS rows) for the tiles N has and
///   the new version has not;
/// - `deltas/<N>.sqlite`: `events` with the app database's columns and rowids, holding the
///   rows that are new or changed since N; `events_rtree(id, min_lon, max_lon, min_lat,
///   max_lat)`, the new R-tree's entries of those rows (a plain table); `deleted_events(rowid)`;
///   `details(id, json)`, the quakes' details new or changed since N, and `deleted_details(id)`;
///   and `info`, the new version's.
///
/// Both name the versions they join in `delta_info(name, value)`: `base_version` (N) and
/// `bundle_version` (the new one), so that an app checks, before applying, that its
/// `quakes.sqlite` is N (its `info` names its `bundle_version`) and that the two files belong
/// together.
///
/// Applying them (docs/deltas.md; docs/apply-delta.py) gives the new
/// version's tiles and rows exactly. Made with SQL over both versions' files: tiles compared
/// by their bytes, rows by the event and version they hold; from the version the app database
/// was patched from, only the rows the patch touched. The export writes the tiles deltas
/// on the thread that wrote `quakes.mbtiles` and the rows deltas on the app database's, each as
/// soon as its new file is complete, so they overlap the rest of the export.
enum DeltaWriter {
    /// One delta, as the manifest lists it.
    struct Delta {
        /// The base version's `bundle_version`.
        let base: String
        /// Whole files (paths in the bundle) that differ from the base's, and those it had and this one has not.
        let changedFiles: [String]
        let removedFiles: [String]
    }

    /// Files a delta carries the changes of, rather than listing them as changed.
    static let coveredFiles = Set(BundleFileName.synced)

    /// An older version a delta starts from.
    struct Base: Sendable {
        let directory: URL
        /// Its `bundle_version`, the delta files' name.
        let version: String
        /// The `bundle_version` the delta leads to.
        let target: String
    }

    /// A delta that could not be made: its base, and why. The export goes on without it.
    struct Failure: Sendable {
        let base: String
        let reason: String
    }

    /// The bases among the older version directories for deltas to `bundleVersion`, with the
    /// directory the deltas go to in its (unpublished) `directory` made ready when there are any.
    /// A version whose manifest cannot be read, or whose `quakes.mbtiles` or `quakes.sqlite` is
    /// missing or not the size its manifest gives (someone removed or damaged it), is passed
    /// over with a warning: an older version never stops the new one.
    static func bases(_ directories: [URL], to bundleVersion: String, in directory: URL, logger: Logger) throws -> [Base] {
        let bases = directories.compactMap { base -> Base? in
            guard let version = Manifest.bundleVersion(in: base) else {
                logger.warning("\(base.path): no readable manifest.json, so no delta from it")
                return nil
            }
            let listing = Manifest.listing(in: base)
            for file in coveredFiles.sorted() where !BundleFiles.hasListedSize(file, in: base, listing: listing) {
                logger.warning("\(base.path): its \(file) is missing or not the one its manifest lists, so no delta from it")
                return nil
            }
            return Base(directory: base, version: version, target: bundleVersion)
        }
        if !bases.isEmpty {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(BundleFileName.deltas), withIntermediateDirectories: true)
        }
        return bases
    }

    /// `delta_info`, the versions a delta joins, as SQL run in the delta file being made.
    private static func deltaInfo(_ base: Base) -> (sql: String, arguments: StatementArguments) {
        (DeltaSchema.infoTable + ";"
            + "INSERT INTO delta_info (name, value) VALUES (?, ?), (?, ?);",
         [DeltaSchema.Info.baseVersion, base.version, DeltaSchema.Info.bundleVersion, base.target])
    }

    /// Writes the tiles delta from each base, once the new version's `quakes.mbtiles` is complete.
    /// From the version whose tiles this one reused (`encoded.base`, a version directory), only
    /// the tiles encoded anew are compared: every other tile is that version's, byte for byte.
    /// From an older base, also those of that version's own delta from the base (the others are
    /// the same in all three); without either, every tile. Returns the deltas that could not be
    /// made (a base's file unreadable), their files removed.
    static func writeTiles(into directory: URL, from bases: [Base], encoded: (base: URL, keys: [TileKey])?) -> [Failure] {
        bases.compactMap { base in
            let candidates = encoded.flatMap { encoded in
                earlierDelta(from: encoded.base, to: base, of: BundleFileName.tiles).map { (encoded.keys, $0) }
            }
            return attempt(base, writing: directory.appendingPathComponent(BundleFileName.tilesDelta(from: base.version))) { url in
                try tiles(new: directory.appendingPathComponent(BundleFileName.tiles), base: base, candidates: candidates, to: url)
            }
        }
    }

    /// Runs `write` for the delta file at `url` from `base`; on failure, removes what it left and says why.
    private static func attempt(_ base: Base, writing url: URL, _ write: (URL) throws -> Void) -> Failure? {
        do {
            try write(url)
            return nil
        } catch {
            try? FileManager.default.removeItem(at: url)
            return Failure(base: base.version, reason: "\(url.lastPathComponent): \(ErrorText.message(error))")
        }
    }

    /// Removes both files of each failed delta from `directory` (the other one may have been
    /// made), says why in a warning, and returns the bases left.
    static func dropping(_ failures: [Failure], from bases: [Base], in directory: URL, logger: Logger) -> [Base] {
        let failed = Set(failures.map(\.base))
        for failure in failures {
            logger.warning("no delta from version \(failure.base): \(failure.reason)")
        }
        for version in failed {
            for file in BundleFileName.synced {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(BundleFileName.delta(of: file, from: version)))
            }
        }
        let left = bases.filter { !failed.contains($0.version) }
        if left.isEmpty { try? FileManager.default.removeItem(at: directory.appendingPathComponent(BundleFileName.deltas)) }
        return left
    }

    /// What the version at `previous` changed since `base`: nil when nothing is known of it,
    /// `.none` when `previous` is the base itself, else its delta file from the base, when that
    /// file is the one its manifest lists (same sha256): a delta file damaged or changed since
    /// it was published says nothing to be trusted, and every tile or row is compared instead.
    private static func earlierDelta(from previous: URL, to base: Base, of file: String) -> URL?? {
        if previous.lastPathComponent == base.directory.lastPathComponent { return .some(nil) }
        let path = BundleFileName.delta(of: file, from: base.version)
        guard BundleFiles.matchingManifest([path], in: previous).contains(path) else { return nil }
        return .some(previous.appendingPathComponent(path))
    }

    /// The rows of the new app database that may differ from those of the bundle it was patched
    /// from (see `AppDatabaseStaging.patch`): every other row is there, the same, under the same
    /// rowid, by construction.
    struct TouchedRows: Sendable {
        /// Rowids (feature ids) of the rows written anew.
        let rowids: [Int64]
        /// Ids whose rows the patch removed from the old file (gone, changed or renumbered).
        let ids: [String]
    }

    /// Writes the rows delta from each base, once the new version's `quakes.sqlite` is complete.
    /// From the base it was patched from (`touched.base`, a version directory), only the rows
    /// the patch touched are compared; from an older base, also the rows of that version's own
    /// delta from the base; without either, every row. Returns the deltas that could not be made.
    static func writeRows(into directory: URL, from bases: [Base], touched: (base: URL, rows: TouchedRows)?) -> [Failure] {
        bases.compactMap { base in
            let candidates = touched.flatMap { touched in
                earlierDelta(from: touched.base, to: base, of: BundleFileName.appDatabase).map { (touched.rows, $0) }
            }
            return attempt(base, writing: directory.appendingPathComponent(BundleFileName.rowsDelta(from: base.version))) { url in
                try rows(new: directory.appendingPathComponent(BundleFileName.appDatabase), base: base, candidates: candidates, to: url)
            }
        }
    }

    /// The deltas as the manifest lists them, from the new version's `files`.
    static func describe(_ bases: [Base], files: [BundleFiles.File]) -> [Delta] {
        let now = Dictionary(files.map { ($0.path, $0.sha256) }, uniquingKeysWith: { a, _ in a })
        func whole(_ path: String) -> Bool { !coveredFiles.contains(path) && !path.hasPrefix(BundleFileName.deltas + "/") }
        return bases.map { base in
            let old = Manifest.files(in: base.directory)
            return Delta(base: base.version,
                         changedFiles: files.map(\.path).filter { whole($0) && old[$0] != now[$0] },
                         removedFiles: old.keys.filter { whole($0) && now[$0] == nil }.sorted())
        }
    }

    /// The tiles delta: new and changed tiles, deleted tiles, the new metadata, the versions. With
    /// `candidates` (the tiles encoded anew, and the delta of the version they were reused from),
    /// only those tiles of the new file are compared (the others are the base's own).
    private static func tiles(new: URL, base: Base, candidates: ([TileKey], URL?)?, to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "delta-tiles", pageSize: SQLiteBuild.compactPageSize)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS m", arguments: [new.path])
            try db.execute(sql: "ATTACH DATABASE ? AS n", arguments: [base.directory.appendingPathComponent(BundleFileName.tiles).path])
            var newTiles = "m.tiles t"
            if let (encoded, earlier) = candidates {
                try db.execute(sql: "CREATE TEMP TABLE encoded (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, PRIMARY KEY (zoom_level, tile_column, tile_row)) WITHOUT ROWID")
                try RawStatement.run(db, "INSERT OR IGNORE INTO temp.encoded VALUES (?, ?, ?)", for: encoded) { s, key in
                    s.bind(1, key.z)
                    s.bind(2, Int(key.x))
                    s.bind(3, Int(key.tmsRow))
                }
                if let earlier {
                    try db.execute(sql: "ATTACH DATABASE ? AS d", arguments: [earlier.path])
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO temp.encoded SELECT zoom_level, tile_column, tile_row FROM d.tiles;
                        INSERT OR IGNORE INTO temp.encoded SELECT zoom_level, tile_column, tile_row FROM d.deleted_tiles;
                        """)
                    try db.execute(sql: "DETACH DATABASE d")
                }
                // CROSS JOIN: SQLite then loops over the tiles encoded anew, not over every tile.
                newTiles = """
                    temp.encoded e CROSS JOIN m.tiles t
                      ON t.zoom_level = e.zoom_level AND t.tile_column = e.tile_column AND t.tile_row = e.tile_row
                    """
            }
            try db.inTransaction(.deferred) {  // deferred: the attached files are only read, by other threads too
                try db.execute(sql: """
                    \(MBTiles.metadataTable);
                    \(MBTiles.metadataIndex);
                    INSERT INTO metadata SELECT name, value FROM m.metadata ORDER BY name;
                    \(MBTiles.tilesTable);
                    INSERT INTO tiles
                      SELECT t.zoom_level, t.tile_column, t.tile_row, t.tile_data FROM \(newTiles)
                      LEFT JOIN n.tiles o ON o.zoom_level = t.zoom_level AND o.tile_column = t.tile_column AND o.tile_row = t.tile_row
                      WHERE o.tile_data IS NULL OR o.tile_data <> t.tile_data
                      ORDER BY t.zoom_level, t.tile_column, t.tile_row;
                    \(MBTiles.tilesIndex);
                    \(DeltaSchema.deletedTilesTable);
                    INSERT INTO deleted_tiles
                      SELECT o.zoom_level, o.tile_column, o.tile_row FROM n.tiles o
                      WHERE NOT EXISTS (SELECT 1 FROM m.tiles t
                                        WHERE t.zoom_level = o.zoom_level AND t.tile_column = o.tile_column AND t.tile_row = o.tile_row)
                      ORDER BY o.zoom_level, o.tile_column, o.tile_row;
                    \(DeltaSchema.deletedTilesIndex);
                    """)
                let versions = deltaInfo(base)
                try db.execute(sql: versions.sql, arguments: versions.arguments)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE m")
            try db.execute(sql: "DETACH DATABASE n")
        }
        try queue.close()
        SQLiteBuild.fsync(url)
    }

    /// The rows delta: new and changed rows with their R-tree entries, deleted rowids, the new
    /// `info`, the details new, changed and gone (every one compared: a few thousand at most), the versions. With `candidates` (the rows the patch touched, and the delta of the
    /// version it patched), only those rows are compared (all the others are the same in both
    /// files); without, every row.
    private static func rows(new: URL, base: Base, candidates: (TouchedRows, URL?)?, to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "delta-rows", pageSize: SQLiteBuild.compactPageSize)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS m", arguments: [new.path])
            try db.execute(sql: "ATTACH DATABASE ? AS n", arguments: [base.directory.appendingPathComponent(BundleFileName.appDatabase).path])
            // The columns as the new app database has them: the schema is written once, there.
            let create = try String.fetchOne(db, sql: "SELECT sql FROM m.sqlite_master WHERE type = 'table' AND name = 'events'")!
            let columns = try Row.fetchAll(db, sql: "PRAGMA m.table_info(events)").map { $0["name"] as String }
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            // A row is the same when it holds the same event at the same `updated`: a row is made
            // from its store row alone, and a stored event changes only with a newer `updated`
            // (the version rule). Comparing every column took 2.6 times as long at 440k rows.
            let same = "o.id IS t.id AND o.updated IS t.updated"
            // The rowids to compare: all of both files, or those the patch touched (in either file).
            var newRows = "m.events t", oldRows = "n.events o"
            if let (touched, earlier) = candidates {
                try db.execute(sql: "CREATE TEMP TABLE touched (rowid INTEGER PRIMARY KEY)")
                // One transaction: each statement on its own would lock and look for the base's journal.
                try db.inTransaction(.deferred) {
                    try RawStatement.run(db, "INSERT OR IGNORE INTO temp.touched VALUES (?)", for: touched.rowids) { $0.bind(1, $1) }
                    // The base's rows of those ids; a row the patched version held elsewhere is in its delta.
                    try RawStatement.run(db, "INSERT OR IGNORE INTO temp.touched SELECT rowid FROM n.events WHERE id = ?", for: touched.ids) { $0.bind(1, $1) }
                    return .commit
                }
                if let earlier {
                    try db.execute(sql: "ATTACH DATABASE ? AS d", arguments: [earlier.path])
                    try db.execute(sql: """
                        INSERT OR IGNORE INTO temp.touched SELECT rowid FROM d.events;
                        INSERT OR IGNORE INTO temp.touched SELECT rowid FROM d.deleted_events;
                        """)
                    try db.execute(sql: "DETACH DATABASE d")
                }
                // CROSS JOIN: SQLite then loops over the few touched rowids, not over the whole table.
                newRows = "temp.touched c CROSS JOIN m.events t ON t.rowid = c.rowid"
                oldRows = "temp.touched c CROSS JOIN n.events o ON o.rowid = c.rowid"
            }
            // A base made before bundles had details has none: all of the new version's are new.
            let baseDetails = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM n.sqlite_master WHERE type = 'table' AND name = 'details')") == true
                ? "n.details" : "(SELECT NULL AS id, NULL AS json WHERE 0)"
            try db.inTransaction(.deferred) {  // deferred: the attached files are only read, by other threads too
                try db.execute(sql: create)
                try db.execute(sql: """
                    INSERT INTO events (rowid, \(list))
                      SELECT t.rowid, \(columns.map { "t.\"\($0)\"" }.joined(separator: ", ")) FROM \(newRows)
                      LEFT JOIN n.events o ON o.rowid = t.rowid
                      WHERE o.rowid IS NULL OR NOT (\(same))
                      ORDER BY t.rowid;
                    \(DeltaSchema.rtreeTable);
                    INSERT INTO events_rtree SELECT r.id, r.min_lon, r.max_lon, r.min_lat, r.max_lat
                      FROM events d CROSS JOIN m.events_rtree r ON r.id = d.rowid ORDER BY r.id;
                    \(DeltaSchema.deletedEventsTable);
                    INSERT INTO deleted_events
                      SELECT o.rowid FROM \(oldRows) WHERE NOT EXISTS (SELECT 1 FROM m.events t WHERE t.rowid = o.rowid) ORDER BY o.rowid;
                    \(AppDatabaseSchema.infoTable);
                    INSERT INTO info SELECT name, value FROM m.info ORDER BY name;
                    \(AppDatabaseSchema.detailsTable);
                    INSERT INTO details (id, json)
                      SELECT t.id, t.json FROM m.details t LEFT JOIN \(baseDetails) o ON o.id = t.id
                      WHERE o.id IS NULL OR o.json IS NOT t.json ORDER BY t.id;
                    \(DeltaSchema.deletedDetailsTable);
                    INSERT INTO deleted_details
                      SELECT o.id FROM \(baseDetails) o WHERE NOT EXISTS (SELECT 1 FROM m.details t WHERE t.id = o.id) ORDER BY o.id;
                    """)
                let versions = deltaInfo(base)
                try db.execute(sql: versions.sql, arguments: versions.arguments)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE m")
            try db.execute(sql: "DETACH DATABASE n")
        }
        try queue.close()
        SQLiteBuild.fsync(url)
    }
}

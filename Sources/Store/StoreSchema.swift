import GRDB
import QuakeCommon

/// The store's schema, its version (`PRAGMA user_version`) and the migrations
/// between versions.
///
/// The tables are a public contract (docs/store.md): other tools read them.
///
/// - `events`: one row per event, newest version. Lists are comma-wrapped like
///   USGS (`,us7000abcd,ci40123456,`), times are ms since 1970 UTC, `longitude` and
///   `latitude` are exact; `geom` is a SpatiaLite POINT (SRID 4326) with the R*Tree
///   spatial index `idx_events_geom`.
/// - `event_ids`: every id an event was ever known by → its current preferred id
///   (an event's own id included; ids of deleted events point at their tombstone).
/// - `tombstones`: deleted events, so that an older page cannot bring them back.
/// - `rejects`: what could not be stored, with source, position, reason and raw text.
/// - `sources`: what has been ingested, by SHA-256 of the body (of the file as stored, for a file
///   read a piece at a time: see `IndexSource.streamedFrom`), so re-indexing is a no-op.
/// - `details` (version 2): a quake's details (`QuakeDetail`'s JSON) by the id of its row in
///   `events`, with the detail's `updated`, when it was fetched and the archive entry it was
///   made from (see `DetailIndexer`).
enum StoreSchema {
    /// The version this build writes.
    static let version = 2

    /// The step that brings a store at version `from` to `from + 1`; version 0 is an empty file.
    /// A later schema adds a case here and never edits an earlier one.
    private static func migration(from version: Int) -> (Database) throws -> Void {
        switch version {
        case 0: return { try createVersion1($0) }
        case 1: return { try createDetails($0) }
        default: preconditionFailure("no migration from schema version \(version)")
        }
    }

    /// Brings the database to `version`. Throws when the store was written by a newer quake-bake.
    static func migrate(_ db: Database, path: String) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard found <= version else {
            throw QuakeBakeError("\(path): the store has schema version \(found), newer than this quake-bake understands (\(version)); use a newer quake-bake or `index --rebuild`")
        }
        guard found < version else { return }
        try db.inTransaction {
            for step in found..<version { try migration(from: step)(db) }
            try db.execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// Creates the current schema in the empty database of a fresh build, but with `events.id`
    /// not yet the primary key: the primary key's index would take every row at a random place
    /// while the table loads (at a million events, half the loading's time went to reading and
    /// writing its pages back), where `keyEventIDs` builds it in one sort once the rows are in.
    ///
    /// Its pages are `bulkPageSize` bytes (SQLite's default is 4 KB); the page size of a file
    /// is set before its first table and kept for its life.
    static func createForBulkBuild(_ db: Database) throws {
        try db.execute(sql: "PRAGMA page_size = \(bulkPageSize)")
        try db.inTransaction {
            try createVersion1(db, id: StoreColumns.unkeyedID)
            for step in 1..<version { try migration(from: step)(db) }
            try db.execute(sql: "PRAGMA user_version = \(version)")
            return .commit
        }
    }

    /// The page size of a store built afresh: 16 KB, a quarter of the pages for SQLite to
    /// allocate, balance, write and read back into its index sorts. At 440k events (one 313 MB
    /// GeoJSON file, four alternating runs each, with the bulk build's 4 MB page cache) the
    /// build took 2.48-2.78 s against 2.94-3.06 s with 4 KB pages, the file is 3% smaller,
    /// and the 3M one-CSV peak stays under the memory budget (292 MB). The price is paid by
    /// updates in place, whose write-ahead log takes whole pages: 1,000 moved events 0.55 ->
    /// 0.61 s (median of eight), 100 (a cron run's worth) 0.15-0.16 s either way. 8 and 32 KB
    /// measured between the two, 64 KB no faster.
    static let bulkPageSize = 16384

    /// Makes `events.id` the primary key of a table `createForBulkBuild` made, once its rows
    /// are in: its index is built in one sort (`CREATE UNIQUE INDEX`, which fails on a
    /// duplicate id), then named as the primary key's own index and the key written into the
    /// table's SQL, by SQLite's documented procedure for schema changes that leave the file's
    /// content as it is (https://www.sqlite.org/lang_altertable.html#otheralter): a primary
    /// key on a TEXT column of a rowid table is a unique index on that column, byte for byte.
    /// The schema is then the one `migrate` makes; that is checked before returning (SQLite's
    /// defensive mode, off unless a connection sets it, would refuse the change: the build then
    /// fails, and the store in place stays as it was).
    static func keyEventIDs(_ db: Database) throws {
        let building = "events_id_key"
        let schemaVersion = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "CREATE UNIQUE INDEX \(building) ON events(id)")
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'events'",
                       arguments: ["\n    \(StoreColumns.unkeyedID),", "\n    \(StoreColumns.keyedID),"])
        try db.execute(sql: "UPDATE sqlite_master SET name = 'sqlite_autoindex_events_1', sql = NULL WHERE type = 'index' AND name = ?",
                       arguments: [building])
        try db.execute(sql: "PRAGMA schema_version = \(schemaVersion + 1)")
        try db.execute(sql: "PRAGMA writable_schema = RESET")
        db.clearSchemaCache()
        let key = try Row.fetchOne(db, sql: """
            SELECT (SELECT pk FROM pragma_table_info('events') WHERE name = 'id') AS pk,
                   (SELECT origin || ' ' || "unique" FROM pragma_index_list('events') WHERE name = 'sqlite_autoindex_events_1') AS autoindex
            """)
        guard let key, key["pk"] == 1, key["autoindex"] == "pk 1" else {
            throw QuakeBakeError("the fresh store's events.id did not become its primary key")
        }
    }

    /// The schema version of an open database.
    static func version(of db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    /// Version 1; `id` is the primary key (`createForBulkBuild` defines it otherwise until the rows are in).
    private static func createVersion1(_ db: Database, id: String = StoreColumns.keyedID) throws {
        try spatialite(db, "InitSpatialMetadata(0, 'WGS84_ONLY')")
        try db.execute(sql: StoreColumns.createEventsSQL(id: id) + """

            CREATE INDEX events_time ON events(time);
            CREATE INDEX events_mag ON events(mag);
            CREATE INDEX events_updated ON events(updated);
            CREATE TABLE event_ids (
                id TEXT PRIMARY KEY NOT NULL,
                preferred TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX event_ids_preferred ON event_ids(preferred);
            CREATE TABLE tombstones (
                id TEXT PRIMARY KEY NOT NULL,     -- preferred id of the deletion
                ids TEXT NOT NULL,                -- every id the deletion named, comma-wrapped
                updated INTEGER NOT NULL,         -- version of the deletion, ms since 1970 UTC
                source TEXT NOT NULL,             -- the page or file that brought it
                recorded_at TEXT NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE rejects (
                id INTEGER PRIMARY KEY,
                source TEXT NOT NULL,
                position TEXT NOT NULL,           -- e.g. `feature 12 (byte 3456)`, `row 7`, `file`
                reason TEXT NOT NULL,
                raw TEXT NOT NULL,
                recorded_at TEXT NOT NULL
            );
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,               -- file path, or `archive page N (url)`
                kind TEXT NOT NULL,               -- file | page
                sha256 TEXT NOT NULL UNIQUE,      -- of the body (decompressed)
                events INTEGER NOT NULL,          -- valid events read
                rejects INTEGER NOT NULL,
                inserted INTEGER NOT NULL,
                updated INTEGER NOT NULL,
                unchanged INTEGER NOT NULL,
                merged INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                problem TEXT,                     -- damage to the document as a whole
                indexed_at TEXT NOT NULL
            );
            """)
        try spatialite(db, "AddGeometryColumn('events', 'geom', 4326, 'POINT', 'XY', 1)")
        try spatialite(db, "CreateSpatialIndex('events', 'geom')")
    }

    /// Version 2: the `details` table.
    private static func createDetails(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE details (
                id TEXT PRIMARY KEY NOT NULL,     -- the quake's row in events (events.id)
                updated INTEGER,                  -- the detail's `updated`, ms since 1970 UTC
                event_updated INTEGER NOT NULL,   -- the event version it was fetched for
                fetched_at TEXT NOT NULL,         -- ISO 8601
                archive INTEGER NOT NULL,         -- the fetch archive's entry it was made from
                summary TEXT NOT NULL             -- the summary, JSON (docs/details.md)
            ) WITHOUT ROWID;
            """)
    }

    /// Runs a SpatiaLite function that answers 1 on success (and 0, not an error, on failure).
    static func spatialite(_ db: Database, _ call: String) throws {
        guard try Int.fetchOne(db, sql: "SELECT \(call)") == 1 else {
            throw QuakeBakeError("SpatiaLite refused `\(call)`")
        }
    }
}

import GRDB
import QuakeCommon

/// The store's schema, its version (`PRAGMA user_version`) and the migrations
/// between versions.
///
/// The tables are a public contract (docs/ARCHITECTURE.md): other tools read them.
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
enum StoreSchema {
    /// The version this build writes.
    static let version = 1

    /// The step that brings a store at version `from` to `from + 1`; version 0 is an empty file.
    /// A later schema adds a case here and never edits an earlier one.
    private static func migration(from version: Int) -> (Database) throws -> Void {
        switch version {
        case 0: return createVersion1
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

    /// The schema version of an open database.
    static func version(of db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    private static func createVersion1(_ db: Database) throws {
        try spatialite(db, "InitSpatialMetadata(0, 'WGS84_ONLY')")
        try db.execute(sql: StoreColumns.createEventsSQL + """

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

    /// Runs a SpatiaLite function that answers 1 on success (and 0, not an error, on failure).
    static func spatialite(_ db: Database, _ call: String) throws {
        guard try Int.fetchOne(db, sql: "SELECT \(call)") == 1 else {
            throw QuakeBakeError("SpatiaLite refused `\(call)`")
        }
    }
}

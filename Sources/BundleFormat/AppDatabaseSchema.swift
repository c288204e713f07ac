/// The app database (``BundleFileName/appDatabase``, docs/bundle.md) as the export makes it:
/// the statements that declare its tables and indexes, as `sqlite_master` keeps them (the export
/// compares a file's with these before it patches it in place).
public enum AppDatabaseSchema {
    /// `events`: one row per quake, its rowid the id of its features in the tiles; `columns` are
    /// the column definitions in table order (the store's contract columns, `StoreColumns.contract`).
    public static func eventsTable(columns: [String]) -> String {
        "CREATE TABLE events (\n  " + columns.joined(separator: ",\n  ") + ")"
    }

    /// The indexes of `events`.
    public static let eventIndexes = [
        "CREATE UNIQUE INDEX events_id ON events (id)",
        "CREATE INDEX events_time ON events (time)",
        "CREATE INDEX events_mag ON events (mag)",
    ]

    /// `info`: the file's schema number, the bundle version it belongs to, the store's
    /// high-water mark, the event count, the recent layer's start (``Info``).
    public static let infoTable = "CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID"

    /// The names of the `info` rows.
    public enum Info {
        /// `PRAGMA user_version` of the file, as text.
        public static let schema = "schema"
        /// The version of the bundle the file is part of (an app applying a delta checks it).
        public static let bundleVersion = "bundle_version"
        /// The store's high-water mark (ms) the bundle was made at.
        public static let storeHighWaterMark = "store_high_water_mark"
        /// The number of rows of `events`.
        public static let events = "events"
        /// With a recent layer, its first origin time (ms): the app draws the quakes from then on itself.
        public static let recentSince = "recent_since"
    }

    /// `events_rtree`: the quakes' positions under their rowids, for rectangle queries.
    public static let rtreeTable = "CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat)"

    /// `details`: each quake's details summary (docs/details.md) by its id.
    public static let detailsTable = "CREATE TABLE details (id TEXT PRIMARY KEY, json TEXT)"
}

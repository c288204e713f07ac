/// The app database (``BundleFileName/appDatabase``, docs/bundle.md) as the export makes it and
/// the app library trusts it: its tables and indexes, declared once (``BundleTable``), and the
/// statements made from them, as `sqlite_master` keeps them (the export compares a file's with
/// these before it patches it in place).
public enum AppDatabaseSchema {
    /// Any time a quake may have, ms (2^53 ms each side of 1970, beyond any real date).
    public static let anyTime: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    /// A rowid of `events`: the id of its features in the tiles (positive, 53 bits).
    public static let rowids: ClosedRange<Int64> = 1...(1 << 53)

    /// `events`' columns, in table order: the store's contract columns (docs/store.md), with the
    /// same names, types, `NOT NULL`s and order, so that rows go across with `SELECT *` (a test
    /// holds them to `StoreColumns.contract`).
    public static let eventColumns: [BundleColumn] = [
        .text("id", .notNull), .text("ids", .notNull), .text("sources", .notNull), .text("types", .notNull),
        .integer("time", anyTime, .notNull), .integer("updated", anyTime, .notNull),
        .real("longitude", -180.0...180.0, .notNull), .real("latitude", -90.0...90.0, .notNull), .real("depth_km"), .real("mag", -20.0...20.0),
        .text("mag_type"), .text("place"), .text("status"), .text("event_type"), .text("net"), .text("code"),
        .integer("felt"), .real("cdi"), .real("mmi"), .text("alert"), .integer("tsunami"), .integer("sig"), .integer("nst"),
        .real("dmin"), .real("rms"), .real("gap"), .text("title"), .text("url"),
    ]

    /// `events`: one row per quake, its rowid the id of its features in the tiles.
    public static let events = BundleTable("events", eventColumns, layout: .columnPerLine)
    /// The indexes of `events`: by id (unique), by time, by magnitude.
    public static let eventIndexList = [
        BundleIndex("events_id", on: events, ["id"], unique: true), BundleIndex("events_time", on: events, ["time"]),
        BundleIndex("events_mag", on: events, ["mag"]),
    ]

    /// `info`: the file's schema number, the bundle version it belongs to, the store's
    /// high-water mark, the event count, the recent layer's start (``Info``).
    public static let info = BundleTable("info", [.text("name", maxBytes: 256, .refused, primaryKey: true), .text("value", maxBytes: 4096)],
                                         storage: .withoutRowID)

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

    /// `events_rtree`: the quakes' positions under their rowids, for rectangle queries (SQLite
    /// reports the column types of an R-tree itself: its `CREATE` gives none).
    public static let rtree = BundleTable("events_rtree", [BundleColumn.integer("id", rowids).untyped]
                                              + ["min_lon", "max_lon", "min_lat", "max_lat"].map { BundleColumn.real($0).untyped },
                                          storage: .rtree)

    /// `details`: each quake's details summary (docs/details.md) by its id; files made before
    /// bundles carried details have none.
    public static let details = BundleTable("details", [.text("id", maxBytes: 256, .refused, primaryKey: true), .text("json", maxBytes: 16 << 20)])

    /// The statements of ``events`` (with the store's column order, see ``eventColumns``), its indexes, ``info``, ``rtree``, ``details``.
    public static let eventsTable = events.create, eventIndexes = eventIndexList.map(\.create)
    public static let infoTable = info.create, rtreeTable = rtree.create, detailsTable = details.create
}

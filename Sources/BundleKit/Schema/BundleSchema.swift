import QuakeBundleFormat

/// The bundle's two SQLite files and their deltas as this library expects them
/// (docs/bundle.md, docs/deltas.md), declared once: the schema checks, the SQL that applies a delta
/// and the queries are all made from these declarations, never from what a file says of itself.
///
/// A table added to the format is one ``SyncedTable`` entry in ``appDatabase`` or ``tiles``
/// (marked `optional` so that files made before it still pass): its place in the file, in
/// the delta (new and changed rows, removed keys) and the SQL that applies it follow.
enum BundleSchema {
    /// The latest `time` a quake may have (2^53 ms, beyond any real date).
    static let anyTime: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    /// A rowid: the features' ids of the tiles (positive, 53 bits).
    static let rowids: ClosedRange<Int64> = 1...(1 << 53)

    /// The app database's `events` columns, in table order (the store's contract columns).
    static let eventColumns: [ColumnSpec] = eventKeyColumns + eventPositionColumns + eventDetailColumns

    private static let eventKeyColumns: [ColumnSpec] = [
        .text("id", nullable: false), .text("ids", nullable: false), .text("sources", nullable: false),
        .text("types", nullable: false), .integer("time", anyTime, nullable: false), .integer("updated", anyTime, nullable: false),
    ]
    private static let eventPositionColumns: [ColumnSpec] = [
        .real("longitude", -180.0...180.0, nullable: false), .real("latitude", -90.0...90.0, nullable: false),
        .real("depth_km"), .real("mag", -20.0...20.0),
    ]
    private static let eventDetailColumns: [ColumnSpec] = [
        .text("mag_type"), .text("place"), .text("status"), .text("event_type"), .text("net"), .text("code"),
        .integer("felt"), .real("cdi"), .real("mmi"), .text("alert"), .integer("tsunami"), .integer("sig"), .integer("nst"),
        .real("dmin"), .real("rms"), .real("gap"), .text("title"), .text("url"),
    ]

    /// `events`: one row per quake, its rowid the id of its features in the tiles.
    static let events = SyncedTable(TableSpec("events", eventColumns), key: ["rowid"], deletions: "deleted_events")

    /// `info`: the version the file belongs to, the recent layer's start, the event count.
    static let info = SyncedTable(TableSpec("info", [.text("name", maxBytes: 256, nullable: false), .text("value", maxBytes: 4096)], storage: .withoutRowID),
                                  key: ["name"], deletions: nil)

    /// `details`: each quake's details document (ShakeMap, PAGER, moment tensor…) by its id;
    /// files made before bundles carried details have none.
    static let details = SyncedTable(TableSpec("details", [.text("id", maxBytes: 256, nullable: false), .text("json", maxBytes: 16 << 20)],
                                               optional: true),
                                     key: ["id"], deletions: "deleted_details")

    /// `events_rtree`: the quakes' positions, for rectangle queries; an R-tree in the app
    /// database, a plain table of the entries of new and changed rows in a delta.
    static let rtree = SpatialIndex(name: "events_rtree", rows: events.table.name)

    /// `quakes.sqlite`.
    static let appDatabase = SyncedFile(
        name: BundleFileName.appDatabase, role: "the app database",
        synced: [events, info, details], spatialIndex: rtree, indexes: ["events_id", "events_time", "events_mag"])

    /// `quakes.mbtiles` (MBTiles 1.3): tiles and metadata.
    static let tiles = SyncedFile(
        name: BundleFileName.tiles, role: "the tiles",
        synced: [
            SyncedTable(TableSpec("tiles", [
                .integer("zoom_level", 0...30, nullable: false), .integer("tile_column", 0...(1 << 30), nullable: false),
                .integer("tile_row", 0...(1 << 30), nullable: false), .blob("tile_data", maxBytes: 16 << 20, nullable: false),
            ], rowCheck: inZoom), key: ["zoom_level", "tile_column", "tile_row"], deletions: "deleted_tiles", keyCheck: inZoom),
            SyncedTable(TableSpec("metadata", [.text("name", maxBytes: 256), .text("value")]), key: ["name"], deletions: nil),
        ],
        spatialIndex: nil, indexes: ["metadata_name", "tile_index"], deltaIndexes: ["deleted_tile_index"])

    /// A tile's column and row lie within its zoom.
    private static let inZoom = "t.tile_column < (1 << t.zoom_level) AND t.tile_row < (1 << t.zoom_level)"

    /// `delta_info`: the two versions a delta joins.
    static let deltaInfo = TableSpec("delta_info", [.text("name", maxBytes: 256, nullable: false), .text("value", maxBytes: 4096)], storage: .withoutRowID)
}

/// A table that deltas keep current.
struct SyncedTable: Sendable {
    /// The table as the bundle file has it; a delta holds its new and changed rows under the
    /// same name, with the same columns.
    let table: TableSpec
    /// The columns that name a row (`rowid`: the table's rowid).
    let key: [String]
    /// The delta's table of the keys of removed rows; `nil`: a delta carries the table whole.
    let deletions: String?
    /// A condition every key must meet (over alias `t`), in the deletions too.
    let keyCheck: String?

    init(_ table: TableSpec, key: [String], deletions: String?, keyCheck: String? = nil) {
        self.table = table
        self.key = key
        self.deletions = deletions
        self.keyCheck = keyCheck
    }

    /// The delta's table of removed keys, with the key's columns.
    var deletionTable: TableSpec? {
        deletions.map { name in
            TableSpec(name, key.map { key in
                key == "rowid" ? .integer("rowid", BundleSchema.rowids, nullable: false) : table.columns.first { $0.name == key }!
            }, rowCheck: keyCheck, optional: table.optional)
        }
    }
}

/// An R-tree over a synced table's rows, under their rowids.
struct SpatialIndex: Sendable {
    let name: String
    /// The synced table whose rowids are the entries' ids.
    let rows: String
    static let columns = ["id", "min_lon", "max_lon", "min_lat", "max_lat"]

    /// As the bundle file has it: the R-tree (SQLite reports its own types for the columns).
    var fileTable: TableSpec {
        TableSpec(name, [ColumnSpec.integer("id", BundleSchema.rowids).untyped] + Self.columns.dropFirst().map { ColumnSpec.real($0).untyped },
                  storage: .rtree)
    }

    /// As a delta has it: a plain table of the entries of the new and changed rows.
    var deltaTable: TableSpec {
        TableSpec(name, [.integer("id", BundleSchema.rowids, nullable: false),
                         .real("min_lon", -180.0...180.0, nullable: false), .real("max_lon", -180.0...180.0, nullable: false),
                         .real("min_lat", -90.0...90.0, nullable: false), .real("max_lat", -90.0...90.0, nullable: false)],
                  rowCheck: "t.min_lon <= t.max_lon AND t.min_lat <= t.max_lat")
    }
}

/// A bundle file that deltas keep current, and its deltas' schema.
struct SyncedFile: Sendable {
    /// The file's name in a bundle.
    let name: String
    /// What it is, for messages.
    let role: String
    let synced: [SyncedTable]
    let spatialIndex: SpatialIndex?
    /// Index names the file may hold.
    let indexes: Set<String>
    /// Index names a delta may hold (those of the file, and of its deletion tables).
    var deltaIndexes: Set<String> = []

    /// The schema of the file itself.
    var fileSchema: FileSchema {
        FileSchema(role: role, tables: synced.map(\.table) + (spatialIndex.map { [$0.fileTable] } ?? []), indexes: indexes)
    }

    /// The schema of a delta of it.
    var deltaSchema: FileSchema {
        FileSchema(role: "a delta of \(role)",
                   tables: synced.flatMap { [$0.table] + ($0.deletionTable.map { [$0] } ?? []) }
                       + (spatialIndex.map { [$0.deltaTable] } ?? []) + [BundleSchema.deltaInfo],
                   indexes: indexes.union(deltaIndexes))
    }
}

import QuakeBundleFormat

/// The bundle's two SQLite files and their deltas as this library expects them
/// (docs/bundle.md, docs/deltas.md): which of the format's tables (``AppDatabaseSchema``,
/// ``MBTiles``, ``DeltaSchema`` in QuakeBundleFormat, where each table is declared once, the
/// export's `CREATE` text made from the same declaration) each file holds, and how a delta
/// keeps each current. The schema checks, the SQL that applies a delta and the queries are all
/// made from these declarations, never from what a file says of itself.
///
/// A table added to the format is declared in QuakeBundleFormat and named by one
/// ``SyncedTable`` entry in ``appDatabase`` or ``tiles`` (marked `optional` so that files made
/// before it still pass): its place in the file, in the delta (new and changed rows, removed
/// keys) and the SQL that applies it follow.
enum BundleSchema {
    /// The app database's `events` columns, in table order (the store's contract columns).
    static let eventColumns = AppDatabaseSchema.eventColumns

    /// `events`: one row per quake, its rowid the id of its features in the tiles.
    static let events = SyncedTable(TableSpec(AppDatabaseSchema.events), key: ["rowid"], deletions: DeltaSchema.deletedEvents)

    /// `info`: the version the file belongs to, the recent layer's start, the event count.
    static let info = SyncedTable(TableSpec(AppDatabaseSchema.info), key: ["name"], deletions: nil)

    /// `details`: each quake's details document (ShakeMap, PAGER, moment tensor…) by its id;
    /// files made before bundles carried details have none.
    static let details = SyncedTable(TableSpec(AppDatabaseSchema.details, optional: true), key: ["id"], deletions: DeltaSchema.deletedDetails)

    /// `events_rtree`: the quakes' positions, for rectangle queries; an R-tree in the app
    /// database, a plain table of the entries of new and changed rows in a delta.
    static let rtree = SpatialIndex(fileTable: TableSpec(AppDatabaseSchema.rtree), deltaTable: TableSpec(DeltaSchema.rtree),
                                    rows: events.table.name)

    /// `quakes.sqlite`.
    static let appDatabase = SyncedFile(
        name: BundleFileName.appDatabase, role: "the app database",
        synced: [events, info, details], spatialIndex: rtree, indexes: Set(AppDatabaseSchema.eventIndexList.map(\.name)))

    /// `quakes.mbtiles` (MBTiles 1.3): tiles and metadata.
    static let tiles = SyncedFile(
        name: BundleFileName.tiles, role: "the tiles",
        synced: [
            SyncedTable(TableSpec(MBTiles.tiles), key: MBTiles.tileIndex.columns, deletions: DeltaSchema.deletedTiles),
            SyncedTable(TableSpec(MBTiles.metadata), key: ["name"], deletions: nil),
        ],
        spatialIndex: nil, indexes: [MBTiles.metadataName.name, MBTiles.tileIndex.name], deltaIndexes: [DeltaSchema.deletedTileIndex.name])

    /// `delta_info`: the two versions a delta joins.
    static let deltaInfo = TableSpec(DeltaSchema.info)
}

/// A table that deltas keep current.
struct SyncedTable: Sendable {
    /// The table as the bundle file has it; a delta holds its new and changed rows under the
    /// same name, with the same columns.
    let table: TableSpec
    /// The columns that name a row (`rowid`: the table's rowid).
    let key: [String]
    /// The delta's table of the keys of removed rows (optional when the table is); `nil`: a
    /// delta carries the table whole.
    let deletionTable: TableSpec?

    init(_ table: TableSpec, key: [String], deletions: BundleTable?) {
        self.table = table
        self.key = key
        deletionTable = deletions.map { TableSpec($0, optional: table.optional) }
    }
}

/// An R-tree over a synced table's rows, under their rowids.
struct SpatialIndex: Sendable {
    /// As the bundle file has it: the R-tree (SQLite reports its own types for the columns).
    let fileTable: TableSpec
    /// As a delta has it: a plain table of the entries of the new and changed rows.
    let deltaTable: TableSpec
    /// The synced table whose rowids are the entries' ids.
    let rows: String

    var name: String { fileTable.name }
    /// The entries' columns: the id, then the box.
    var columns: [String] { fileTable.columnNames }
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
        let changes: [TableSpec] = synced.flatMap { synced -> [TableSpec] in [synced.table] + (synced.deletionTable.map { [$0] } ?? []) }
        let spatial: [TableSpec] = spatialIndex.map { [$0.deltaTable] } ?? []
        return FileSchema(role: "a delta of \(role)", tables: changes + spatial + [BundleSchema.deltaInfo],
                          indexes: indexes.union(deltaIndexes))
    }
}

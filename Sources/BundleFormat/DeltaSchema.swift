/// The tables a delta (docs/deltas.md) has beyond those of the file it changes: the keys of
/// the rows removed, the new R-tree entries as a plain table, and the versions it joins. A
/// tiles delta is otherwise ``MBTiles``'s schema; a rows delta ``AppDatabaseSchema``'s `events`,
/// `info` and `details`.
public enum DeltaSchema {
    /// `delta_info`: the versions the delta joins (``Info``), as `info` is made.
    public static let info = AppDatabaseSchema.info.renamed("delta_info")

    /// The names of the `delta_info` rows.
    public enum Info {
        /// The version the delta starts from.
        public static let baseVersion = "base_version"
        /// The version it leads to.
        public static let bundleVersion = AppDatabaseSchema.Info.bundleVersion
    }

    /// `deleted_tiles`: the addresses (TMS rows) of the tiles the base has and the new version has not.
    public static let deletedTiles = BundleTable("deleted_tiles", Array(MBTiles.tiles.columns.prefix(3)), rowCheck: MBTiles.tiles.rowCheck)
    /// One entry per address.
    public static let deletedTileIndex = BundleIndex("deleted_tile_index", on: deletedTiles, deletedTiles.columnNames, unique: true)

    /// `events_rtree`: the new R-tree's entries of the new and changed rows, a plain table.
    public static let rtree = BundleTable("events_rtree", [
        .integer("id", AppDatabaseSchema.rowids, .refused, primaryKey: true),
        .real("min_lon", -180.0...180.0, .refused), .real("max_lon", -180.0...180.0, .refused),
        .real("min_lat", -90.0...90.0, .refused), .real("max_lat", -90.0...90.0, .refused),
    ], rowCheck: "t.min_lon <= t.max_lon AND t.min_lat <= t.max_lat")
    /// `deleted_events`: the rowids the base has and the new version has not.
    public static let deletedEvents = BundleTable("deleted_events", [.integer("rowid", AppDatabaseSchema.rowids, .refused, primaryKey: true)])
    /// `deleted_details`: the ids of the details the base has and the new version has not.
    public static let deletedDetails = BundleTable("deleted_details", [AppDatabaseSchema.details.columns[0]])

    /// The statements of ``info``, ``deletedTiles`` and its index, ``rtree``, ``deletedEvents``, ``deletedDetails``.
    public static let infoTable = info.create
    public static let deletedTilesTable = deletedTiles.create, deletedTilesIndex = deletedTileIndex.create
    public static let rtreeTable = rtree.create, deletedEventsTable = deletedEvents.create, deletedDetailsTable = deletedDetails.create
}

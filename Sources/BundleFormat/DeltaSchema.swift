/// The tables a delta (docs/deltas.md) has beyond those of the file it changes: the keys of
/// the rows removed, the new R-tree entries as a plain table, and the versions it joins. A
/// tiles delta is otherwise ``MBTiles``'s schema; a rows delta ``AppDatabaseSchema``'s `events`,
/// `info` and `details`.
public enum DeltaSchema {
    /// `delta_info`: the versions the delta joins (``Info``).
    public static let infoTable = "CREATE TABLE delta_info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID"

    /// The names of the `delta_info` rows.
    public enum Info {
        /// The version the delta starts from.
        public static let baseVersion = "base_version"
        /// The version it leads to.
        public static let bundleVersion = AppDatabaseSchema.Info.bundleVersion
    }

    /// `deleted_tiles`: the addresses (TMS rows) of the tiles the base has and the new version has not.
    public static let deletedTilesTable = "CREATE TABLE deleted_tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER)"
    /// One entry per address.
    public static let deletedTilesIndex = "CREATE UNIQUE INDEX deleted_tile_index ON deleted_tiles (zoom_level, tile_column, tile_row)"

    /// `events_rtree`: the new R-tree's entries of the new and changed rows, a plain table.
    public static let rtreeTable = "CREATE TABLE events_rtree (id INTEGER PRIMARY KEY, min_lon REAL, max_lon REAL, min_lat REAL, max_lat REAL)"
    /// `deleted_events`: the rowids the base has and the new version has not.
    public static let deletedEventsTable = "CREATE TABLE deleted_events (rowid INTEGER PRIMARY KEY)"
    /// `deleted_details`: the ids of the details the base has and the new version has not.
    public static let deletedDetailsTable = "CREATE TABLE deleted_details (id TEXT PRIMARY KEY)"
}

/// MBTiles 1.3 (mapbox/mbtiles-spec) as a bundle's ``BundleFileName/tiles`` and its tiles deltas
/// have it: a plain SQLite file that needs no extension, `metadata(name, value)` and
/// `tiles(zoom_level, tile_column, tile_row, tile_data)` with TMS rows (counted from the south),
/// gzip MVT blobs, a unique index on the tile address, application id `MPBX`.
///
/// The statements are text, run by each side's SQLite library (GRDB in the pipeline, the C API
/// in QuakeBundleKit, which takes no pipeline module and no GRDB).
public enum MBTiles {
    /// `metadata`: name and value, both text (MBTiles 1.3 "metadata").
    public static let metadata = BundleTable("metadata", [.text("name", maxBytes: 256), .text("value")])
    /// One value per name.
    public static let metadataName = BundleIndex("metadata_name", on: metadata, ["name"], unique: true)
    /// `tiles`: one gzip MVT per address, its row TMS (``row(_:zoom:)``). The spec's `CREATE`
    /// says no `NOT NULL`; a reader refuses NULLs all the same, and a tile outside its zoom.
    public static let tiles = BundleTable("tiles", [
        .integer("zoom_level", 0...30, .refused), .integer("tile_column", 0...(1 << 30), .refused),
        .integer("tile_row", 0...(1 << 30), .refused), .blob("tile_data", maxBytes: 16 << 20, .refused),
    ], rowCheck: "t.tile_column < (1 << t.zoom_level) AND t.tile_row < (1 << t.zoom_level)")
    /// One tile per address.
    public static let tileIndex = BundleIndex("tile_index", on: tiles, ["zoom_level", "tile_column", "tile_row"], unique: true)

    /// The tables and indexes of the file, in the order they are made, as `sqlite_master` keeps them.
    public static let schema = [metadataTable, metadataIndex, tilesTable, tilesIndex]
    /// The statements of ``metadata``, ``metadataName``, ``tiles`` and ``tileIndex``.
    public static let metadataTable = metadata.create, metadataIndex = metadataName.create
    public static let tilesTable = tiles.create, tilesIndex = tileIndex.create

    /// `PRAGMA application_id` of the file: `MPBX`.
    public static let applicationID = 0x4d504258

    /// Adds one tile: zoom, column, TMS row, bytes.
    public static let insertTile = "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)"
    /// Removes the tile at zoom, column, TMS row.
    public static let deleteTile = "DELETE FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
    /// The bytes of the tile at zoom, column, TMS row.
    public static let selectTile = "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?"
    /// Every metadata row with a name, as (name, value), values of any kind read as text.
    public static let selectMetadata = "SELECT CAST(name AS TEXT), CAST(value AS TEXT) FROM metadata WHERE name IS NOT NULL"
    /// Adds one metadata row: name, value.
    public static let insertMetadata = "INSERT INTO metadata (name, value) VALUES (?, ?)"

    /// The names of the `metadata` rows a bundle's file has (MBTiles 1.3), in the order it writes them.
    public enum Metadata {
        public static let name = "name", format = "format", type = "type", version = "version"
        public static let description = "description", attribution = "attribution"
        /// `west,south,east,north` and `longitude,latitude,zoom`, in degrees.
        public static let bounds = "bounds", center = "center"
        public static let minZoom = "minzoom", maxZoom = "maxzoom"
        /// The vector layers and their statistics (TileJSON's `vector_layers`, `tilestats`).
        public static let json = "json"
        /// The ``format`` of vector tiles (gzip MVT).
        public static let vectorTiles = "pbf"
    }

    /// The MBTiles (TMS) row of XYZ row `y` at `zoom`, and the XYZ row of TMS row `y`: the
    /// flip is its own inverse. XYZ rows count from the north, TMS rows from the south.
    @inlinable
    public static func row(_ y: Int, zoom: Int) -> Int { (1 << zoom) - 1 - y }
}

import QuakeBundleFormat
import Testing

/// Issue 49.2: each table of a bundle's SQLite files is declared once (``BundleTable``), and the
/// `CREATE` text made from the declaration is, byte for byte, the text bundles have always
/// carried: `sqlite_master` keeps it, the export compares a file's with it before patching the
/// file in place, and the app library's check reads the same declaration.
@Suite struct TableDeclarationTests {
    /// The statements as bundles made before the declarations held them (main at d7ec1a9).
    static let golden: [(String, String)] = [
        (MBTiles.metadataTable, "CREATE TABLE metadata (name TEXT, value TEXT)"),
        (MBTiles.metadataIndex, "CREATE UNIQUE INDEX metadata_name ON metadata (name)"),
        (MBTiles.tilesTable, "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)"),
        (MBTiles.tilesIndex, "CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)"),
        (AppDatabaseSchema.eventsTable, "CREATE TABLE events (\n  id TEXT NOT NULL,\n  ids TEXT NOT NULL,\n  sources TEXT NOT NULL,\n  types TEXT NOT NULL,\n  time INTEGER NOT NULL,\n  updated INTEGER NOT NULL,\n  longitude REAL NOT NULL,\n  latitude REAL NOT NULL,\n  depth_km REAL,\n  mag REAL,\n  mag_type TEXT,\n  place TEXT,\n  status TEXT,\n  event_type TEXT,\n  net TEXT,\n  code TEXT,\n  felt INTEGER,\n  cdi REAL,\n  mmi REAL,\n  alert TEXT,\n  tsunami INTEGER,\n  sig INTEGER,\n  nst INTEGER,\n  dmin REAL,\n  rms REAL,\n  gap REAL,\n  title TEXT,\n  url TEXT)"),
        (AppDatabaseSchema.eventIndexes[0], "CREATE UNIQUE INDEX events_id ON events (id)"),
        (AppDatabaseSchema.eventIndexes[1], "CREATE INDEX events_time ON events (time)"),
        (AppDatabaseSchema.eventIndexes[2], "CREATE INDEX events_mag ON events (mag)"),
        (AppDatabaseSchema.infoTable, "CREATE TABLE info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID"),
        (AppDatabaseSchema.rtreeTable, "CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_lon, max_lon, min_lat, max_lat)"),
        (AppDatabaseSchema.detailsTable, "CREATE TABLE details (id TEXT PRIMARY KEY, json TEXT)"),
        (DeltaSchema.infoTable, "CREATE TABLE delta_info (name TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID"),
        (DeltaSchema.deletedTilesTable, "CREATE TABLE deleted_tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER)"),
        (DeltaSchema.deletedTilesIndex, "CREATE UNIQUE INDEX deleted_tile_index ON deleted_tiles (zoom_level, tile_column, tile_row)"),
        (DeltaSchema.rtreeTable, "CREATE TABLE events_rtree (id INTEGER PRIMARY KEY, min_lon REAL, max_lon REAL, min_lat REAL, max_lat REAL)"),
        (DeltaSchema.deletedEventsTable, "CREATE TABLE deleted_events (rowid INTEGER PRIMARY KEY)"),
        (DeltaSchema.deletedDetailsTable, "CREATE TABLE deleted_details (id TEXT PRIMARY KEY)"),
    ]

    @Test func theCreateTextIsTheTextBundlesHaveAlwaysCarried() {
        for (made, expected) in Self.golden { #expect(made == expected) }
        #expect(Self.golden.count == FormatHomeTests.statements.count, "every statement of the home is held to its text")
        #expect(MBTiles.schema == [MBTiles.metadataTable, MBTiles.metadataIndex, MBTiles.tilesTable, MBTiles.tilesIndex])
    }

    /// What a reader is told beyond the `CREATE` text: the bounds and the NULLs it refuses.
    @Test func theDeclarationsCarryWhatAReaderChecks() {
        let tiles = MBTiles.tiles.columns
        #expect(tiles.map(\.nullable) == [false, false, false, false], "the MBTiles spec's CREATE says no NOT NULL; a reader refuses NULL all the same")
        #expect(tiles[0].kind == .integer(0...30) && tiles[3].kind == .blob(maxBytes: 16 << 20))
        #expect(DeltaSchema.deletedTiles.columns == Array(tiles.prefix(3)) && DeltaSchema.deletedTiles.rowCheck == MBTiles.tiles.rowCheck)
        let events = AppDatabaseSchema.events.columns
        #expect(events.first { $0.name == "mag" }?.kind == .real(-20...20))
        #expect(events.first { $0.name == "time" }.map { $0.kind == .integer(AppDatabaseSchema.anyTime) && !$0.nullable } == true)
        #expect(AppDatabaseSchema.details.columns[0] == DeltaSchema.deletedDetails.columns[0], "a removed detail's key is the details' key")
        #expect(AppDatabaseSchema.rtree.columns.allSatisfy { $0.declaredType.isEmpty } && AppDatabaseSchema.rtree.storage == .rtree)
        #expect(DeltaSchema.rtree.columnNames == AppDatabaseSchema.rtree.columnNames, "a delta's R-tree entries have the R-tree's columns")
        #expect(DeltaSchema.info.columns == AppDatabaseSchema.info.columns && DeltaSchema.info.storage == .withoutRowID)
    }
}

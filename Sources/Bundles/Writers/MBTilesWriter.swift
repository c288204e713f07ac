import Foundation
import GRDB
import GRDBSQLite
import QuakeTiles

/// Writes `quakes.mbtiles` (mapbox/mbtiles-spec 1.3): a plain SQLite file that
/// needs no extension, `metadata(name, value)` and `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` with TMS rows (counted from the south),
/// gzip MVT blobs, a unique index on the tile address, application id `MPBX`.
enum MBTilesWriter {
    /// Writes the file; `metadata` rows go in the order given.
    static func write(records: [TileRecord], data: TileData, metadata: [(String, String)], to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "export.mbtiles")
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = 0x4d504258")
            try db.inTransaction {
                try db.execute(sql: """
                    CREATE TABLE metadata (name TEXT, value TEXT);
                    CREATE UNIQUE INDEX metadata_name ON metadata (name);
                    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    """)
                try SQLiteBuild.executeMany(db, sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", metadata) { s, row in
                    SQLiteBuild.bindText(s, 1, row.0)
                    SQLiteBuild.bindText(s, 2, row.1)
                }
                // In index order (a sorted order of positions, not a sorted copy of 200,000 records:
                // this runs at the export's memory peak).
                let order = records.indices.sorted {
                    let a = records[$0].key, b = records[$1].key
                    return (a.z, a.x, a.tmsRow) < (b.z, b.x, b.tmsRow)
                }
                try SQLiteBuild.executeMany(db, sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)",
                                            order.lazy.map { records[$0] }) { s, record in
                    sqlite3_bind_int64(s, 1, Int64(record.key.z))
                    sqlite3_bind_int64(s, 2, Int64(record.key.x))
                    sqlite3_bind_int64(s, 3, Int64(record.key.tmsRow))
                    SQLiteBuild.bindBlob(s, 4, try data.bytes(of: record))
                }
                return .commit
            }
        }
        try queue.close()
        SQLiteBuild.fsync(url)
    }
}

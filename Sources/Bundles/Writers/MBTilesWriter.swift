import Foundation
import GRDB
import QuakeSQLite
import QuakeTiles

/// Writes `quakes.mbtiles` (mapbox/mbtiles-spec 1.3): a plain SQLite file that
/// needs no extension, `metadata(name, value)` and `tiles(zoom_level,
/// tile_column, tile_row, tile_data)` with TMS rows (counted from the south),
/// gzip MVT blobs, a unique index on the tile address, application id `MPBX`.
enum MBTilesWriter {
    /// Writes the file; `metadata` rows go in the order given.
    static func write(records: [TileRecord], data: TileData, metadata: [(String, String)], to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "export.mbtiles", pageSize: SQLiteBuild.compactPageSize)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = 0x4d504258")
            try db.inTransaction {
                try db.execute(sql: """
                    CREATE TABLE metadata (name TEXT, value TEXT);
                    CREATE UNIQUE INDEX metadata_name ON metadata (name);
                    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    """)
                try RawStatement.run(db, "INSERT INTO metadata (name, value) VALUES (?, ?)", for: metadata) { s, row in
                    s.bind(1, row.0)
                    s.bind(2, row.1)
                }
                // In index order (a sorted order of positions, not a sorted copy of 200,000 records:
                // this runs at the export's memory peak).
                let order = records.indices.sorted {
                    let a = records[$0].key, b = records[$1].key
                    return (a.z, a.x, a.tmsRow) < (b.z, b.x, b.tmsRow)
                }
                let insert = "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)"
                try RawStatement.run(db, insert, for: order.lazy.map { records[$0] }) { s, record in
                    s.bind(1, Int64(record.key.z))
                    s.bind(2, Int64(record.key.x))
                    s.bind(3, Int64(record.key.tmsRow))
                    try data.bytes(of: record).withUnsafeBytes { s.bind(4, blob: $0) }
                }
                return .commit
            }
        }
        try queue.close()
        SQLiteBuild.fsync(url)
    }
}

import Foundation
import GRDB
import QuakeBundleFormat
import QuakeCommon
import QuakeSQLite
import QuakeTiles

/// Writes `quakes.mbtiles` as `MBTiles` declares it (mapbox/mbtiles-spec 1.3).
enum MBTilesWriter {
    /// Writes the file; `metadata` rows go in the order given.
    ///
    /// With `previous`, a copy of the previous version's file, whose tiles are those of `records`
    /// that were reused (`TileRecord.Origin.previous`), the copy is patched instead while it stays compact
    /// (`SQLiteBuild.isCompact`): the tiles gone are deleted, those encoded anew written over the
    /// old ones or added, the metadata replaced. The file then holds the tiles and metadata a full
    /// export writes, not the same bytes. Returns whether it was patched.
    @discardableResult
    static func write(records: [TileRecord], data: TileData, metadata: [(String, String)], previous: PreviousFileCopy?, to url: URL) throws -> Bool {
        if let previous, previous.wait() {
            try previous.move(to: url)
            if try patch(url, records: records, data: data, metadata: metadata), try SQLiteBuild.isCompact(url, unusedShare: compactUnusedShare) {
                SQLiteBuild.fsync(url)
                return true
            }
        }
        try write(records: records, data: data, metadata: metadata, to: url)
        return false
    }

    /// How much of a patched file may be unused before it is written whole again (`SQLiteBuild.isCompact`):
    /// one written whole leaves some 9% unused (a big tile ends in a part-filled page).
    static let compactUnusedShare = 0.2

    /// Patches the copy of the previous file at `url` (see `write`); false when it is not a file this writer made.
    private static func patch(_ url: URL, records: [TileRecord], data: TileData, metadata: [(String, String)]) throws -> Bool {
        let queue = try SQLiteBuild.open(url, label: "export.mbtiles-patch")
        defer { try? queue.close() }
        return try queue.writeWithoutTransaction { db in
            // `sqlite_master` keeps the statements in the order they ran.
            let declared = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master ORDER BY rowid")
            guard declared == MBTiles.schema,
                  try Int.fetchOne(db, sql: "PRAGMA application_id") == MBTiles.applicationID else { return false }
            try db.inTransaction {
                let now = Set(records.map { Address(z: $0.key.z, x: Int($0.key.x), row: Int($0.key.tmsRow)) })
                let gone = try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row FROM tiles")
                    .map { try Address(z: $0.decode(atIndex: 0), x: $0.decode(atIndex: 1), row: $0.decode(atIndex: 2)) }.filter { !now.contains($0) }
                try RawStatement.run(db, MBTiles.deleteTile, for: gone) { s, key in
                    s.bind(1, key.z)
                    s.bind(2, key.x)
                    s.bind(3, key.row)
                }
                let upsert = MBTiles.insertTile
                    + " ON CONFLICT (zoom_level, tile_column, tile_row) DO UPDATE SET tile_data = excluded.tile_data"
                try RawStatement.run(db, upsert, for: records.lazy.filter { $0.origin == .fresh }) { s, record in
                    s.bind(1, Int64(record.key.z))
                    s.bind(2, Int64(record.key.x))
                    s.bind(3, Int64(record.key.tmsRow))
                    try data.bytes(of: record).withUnsafeBytes { s.bind(4, blob: $0) }
                }
                try db.execute(sql: "DELETE FROM metadata")
                try insertMetadata(db, metadata)
                return .commit
            }
            return true
        }
    }

    /// A tile's address as the file keys it (TMS row).
    private struct Address: Hashable {
        let z: Int, x: Int, row: Int
    }

    private static func insertMetadata(_ db: Database, _ metadata: [(String, String)]) throws {
        try RawStatement.run(db, MBTiles.insertMetadata, for: metadata) { s, row in
            s.bind(1, row.0)
            s.bind(2, row.1)
        }
    }

    /// Writes the file whole.
    private static func write(records: [TileRecord], data: TileData, metadata: [(String, String)], to url: URL) throws {
        let queue = try SQLiteBuild.create(url, label: "export.mbtiles", pageSize: SQLiteBuild.compactPageSize)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA application_id = \(MBTiles.applicationID)")
            try db.inTransaction {
                try db.execute(sql: MBTiles.schema.map { $0 + ";\n" }.joined())
                try insertMetadata(db, metadata)
                // In index order (a sorted order of positions, not a sorted copy of 200,000 records:
                // this runs at the export's memory peak).
                let order = records.indices.sorted {
                    let a = records[$0].key, b = records[$1].key
                    return (a.z, a.x, a.tmsRow) < (b.z, b.x, b.tmsRow)
                }
                try RawStatement.run(db, MBTiles.insertTile, for: order.lazy.map { records[$0] }) { s, record in
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

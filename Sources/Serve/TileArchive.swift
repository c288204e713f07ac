import Foundation
import GRDB
import QuakeSQLite

/// A bundle's `quakes.mbtiles`, opened read-only: tiles by XYZ address, as stored (gzip MVT).
final class TileArchive: @unchecked Sendable {
    /// The bundle version the tiles belong to (its directory's name), for ETags.
    let version: String
    let minZoom: Int
    let maxZoom: Int
    private let queue: DatabaseQueue

    init(_ file: URL, version: String) throws {
        self.version = version
        queue = try ReadOnlyDatabase.open(file.path)
        let metadata = try queue.read { db in
            // Any file given as a bundle: the first of names written twice, values of any kind read as text.
            try Dictionary(Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT), CAST(value AS TEXT) FROM metadata WHERE name IS NOT NULL")
                .map { (try $0.decode(String.self, atIndex: 0), try $0.decode(String?.self, atIndex: 1) ?? "") }, uniquingKeysWith: { first, _ in first })
        }
        minZoom = Int(metadata["minzoom"] ?? "") ?? 0
        maxZoom = Int(metadata["maxzoom"] ?? "") ?? 0
    }

    /// The tile at `z/x/y` (XYZ, y down), or `nil` where the archive has none.
    func tile(z: Int, x: Int, y: Int) throws -> Data? {
        let row = (1 << z) - 1 - y // MBTiles rows are TMS: y up
        return try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                              arguments: [z, x, row])
        }
    }
}

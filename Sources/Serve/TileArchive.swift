import Foundation
import GRDB
import QuakeBundleFormat
import QuakeCommon
import QuakeSQLite

/// A bundle's `quakes.mbtiles`, opened read-only: tiles by XYZ address, as stored (gzip MVT).
///
/// Its metadata is checked when it is opened, since the pages and the tile addresses are built
/// from it: zooms out of 0…24 or in the wrong order, bounds or a center off the globe, or a
/// format other than `pbf` refuse the bundle with a message naming the file and the value.
final class TileArchive: @unchecked Sendable {
    /// The bundle version the tiles belong to (its directory's name), for ETags.
    let version: String
    let minZoom: Int
    let maxZoom: Int
    private let queue: DatabaseQueue

    /// The zooms a web map can show (MapLibre stops at 24); tiles beyond would be addresses past 2^24.
    static let zooms = 0...24

    init(_ file: URL, version: String) throws {
        self.version = version
        queue = try ReadOnlyDatabase.open(file.path)
        let metadata = try queue.read { db in
            // Any file given as a bundle: the first of names written twice.
            try Dictionary(Row.fetchAll(db, sql: MBTiles.selectMetadata + " LIMIT 1000")
                .map { (try $0.decode(String.self, atIndex: 0), try $0.decode(String?.self, atIndex: 1) ?? "") }, uniquingKeysWith: { first, _ in first })
        }
        (minZoom, maxZoom) = try Self.check(metadata, of: file)
    }

    /// The zooms of `metadata`, once every value `serve` relies on is in range.
    static func check(_ metadata: [String: String], of file: URL) throws -> (Int, Int) {
        func refuse(_ why: String) -> QuakeBakeError {
            QuakeBakeError("\(file.path): \(why); not a bundle serve can show (export it again)", exitStatus: .dataError)
        }
        func zoom(_ name: String) throws -> Int {
            guard let text = metadata[name] else { throw refuse("the MBTiles metadata has no \(name)") }
            guard let zoom = Int(text.trimmingCharacters(in: .whitespaces)), zooms.contains(zoom) else {
                throw refuse("the MBTiles metadata \(name) \"\(text.prefix(40))\" is not a zoom \(zooms.lowerBound)…\(zooms.upperBound)")
            }
            return zoom
        }
        let minZoom = try zoom(MBTiles.Metadata.minZoom), maxZoom = try zoom(MBTiles.Metadata.maxZoom)
        guard minZoom <= maxZoom else { throw refuse("the MBTiles metadata minzoom \(minZoom) is above maxzoom \(maxZoom)") }
        if let format = metadata[MBTiles.Metadata.format], format != MBTiles.Metadata.vectorTiles { throw refuse("the MBTiles metadata format \"\(format.prefix(40))\" is not pbf (vector tiles)") }
        func numbers(_ name: String, count: ClosedRange<Int>) throws -> [Double]? {
            guard let text = metadata[name] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard count.contains(parts.count), parts.allSatisfy({ $0?.isFinite == true }) else {
                throw refuse("the MBTiles metadata \(name) \"\(text.prefix(80))\" is not \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) or \(count.upperBound)") numbers")
            }
            return parts.map { $0! }
        }
        func onTheGlobe(_ longitude: Double, _ latitude: Double) -> Bool { (-180...180).contains(longitude) && (-90...90).contains(latitude) }
        if let b = try numbers(MBTiles.Metadata.bounds, count: 4...4), !(onTheGlobe(b[0], b[1]) && onTheGlobe(b[2], b[3]) && b[0] <= b[2] && b[1] <= b[3]) {
            throw refuse("the MBTiles metadata bounds \(metadata[MBTiles.Metadata.bounds]!.prefix(80)) are not west,south,east,north on the globe")
        }
        if let c = try numbers(MBTiles.Metadata.center, count: 2...3), !(onTheGlobe(c[0], c[1]) && (c.count == 2 || (0...Double(zooms.upperBound)).contains(c[2]))) {
            throw refuse("the MBTiles metadata center \(metadata[MBTiles.Metadata.center]!.prefix(80)) is not longitude,latitude[,zoom] on the globe")
        }
        return (minZoom, maxZoom)
    }

    /// The tile at `z/x/y` (XYZ, y down), or `nil` where the archive has none.
    func tile(z: Int, x: Int, y: Int) throws -> Data? {
        try queue.read { db in
            try Data.fetchOne(db, sql: MBTiles.selectTile, arguments: [z, x, MBTiles.row(y, zoom: z)])
        }
    }
}

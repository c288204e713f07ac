import Foundation
import Logging
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import TestSupport

/// One bundle exported from real samples and read back by the Python witness,
/// shared by the proof tests (exporting and decoding it once keeps the suite fast).
///
/// Events: the 4,711 events of a week in June 2018 (world-wide, with the dense
/// Kīlauea swarm), the 169 M6+ events of 1973–2023 within 1° of the antimeridian
/// (Fiji, Tonga, Kermadec, Aleutians), and two events placed exactly on lon 180
/// and lon -180. (The `antimeridian-window` sample is a query window written as
/// -230…-213 and holds Japanese events at 130–146 E, none near ±180.)
final class ProofBundle: Sendable {
    static let shared = Task { try await ProofBundle() }

    let workspace: URL
    let events: [String: QuakeEvent]
    let options: ExportOptions
    let summary: ExportSummary
    let report: BundleReport

    static let maxZoom = 8

    private init() async throws {
        workspace = FileManager.default.temporaryDirectory.appendingPathComponent("quake-bake-proof-\(getpid())")
        Self.removeStaleCopies(prefix: "quake-bake-proof-")
        try? FileManager.default.removeItem(at: workspace)
        let antimeridian = CatalogFile.read(TestData.usgs("query-m6-1973-2023.csv.gz")).events.filter { abs($0.longitude ?? 0) >= 179 }
        var east = antimeridian[0], west = antimeridian[1]
        (east.id, east.ids, east.longitude, east.latitude) = ("qbtest180e", ["qbtest180e"], 180, -17.5)
        (west.id, west.ids, west.longitude, west.latitude) = ("qbtest180w", ["qbtest180w"], -180, 51.25)
        let store = try TestStore(workspace: workspace, samples: ["feed-all_week-2018-06.geojson.gz"], extra: antimeridian + [east, west])
        events = try store.events()
        var options = ExportOptions()
        options.thinning.maxZoom = Self.maxZoom
        options.recentDays = .off  // the proofs are of the tiles' thinning, with every quake in the tiles
        self.options = options
        summary = try Exporter.export(store: store.url, out: workspace.appendingPathComponent("bundles"), options: options,
                                      progress: Progress.silent, logger: ExportHelpers.silentLogger)
        report = try await BundleReport.read(summary.directory)
    }

    /// The published bundle directory.
    var directory: URL { summary.directory }

    /// Decoded event features per zoom: (tile, feature).
    func eventFeatures(zoom: Int) -> [(tile: BundleReport.Tile, feature: DecodedFeature)] {
        report.mbtiles.tiles.filter { $0.z == zoom }.flatMap { tile in
            (tile.layers[TileEncoder.eventLayer]?.features ?? []).map { (tile, $0) }
        }
    }

    /// Decoded cluster features per zoom.
    func clusterFeatures(zoom: Int) -> [(tile: BundleReport.Tile, feature: DecodedFeature)] {
        report.mbtiles.tiles.filter { $0.z == zoom }.flatMap { tile in
            (tile.layers[TileEncoder.clusterLayer]?.features ?? []).map { (tile, $0) }
        }
    }

    /// Removes the copies named `prefix` + process id that earlier test processes left and ended.
    static func removeStaleCopies(prefix: String) {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0 {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}

/// Web Mercator written independently of `QuakeTiles.WebMercator` (the textbook
/// formula with tan/sec), for checking decoded positions.
enum ReferenceMercator {
    /// The position of (lon, lat) in tile units of the whole world at `zoom` (4096 per tile).
    static func global(longitude: Double, latitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = Double(1 << zoom) * 4096
        let lat = min(max(latitude, -85.0511287798066), 85.0511287798066) * .pi / 180
        let x = (longitude + 180) / 360 * size
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * size
        return (x, y)
    }
}

import Foundation
import QuakeCatalog
import QuakeBundles
import Testing
import TestSupport

/// PMTiles leaf directories, directly (issue 17.7): a bundle with more tiles than the root
/// directory holds puts its entries in leaf directories, and the independent `pmtiles`
/// reader finds every tile through them, byte for byte the MBTiles' tile.
@Suite struct PMTilesLeafTests {
    struct Report: Decodable {
        let header: [String: JSON]
        let tiles: Int
        let mbtiles_tiles: Int
        let mismatches: Int
    }

    @Test func tilesBeyondTheRootDirectoryAreFoundThroughLeaves() async throws {
        let dir = TemporaryDirectory("pmtiles-leaves")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let summary = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.thinning.maxZoom = 16 }
        let report = try JSONDecoder().decode(Report.self, from: await WitnessScript.run("tiles_witness.py", ["pmtiles", summary.directory.path]))
        #expect((report.header["leaf_directory_length"]?.number ?? 0) > 0, "leaf directories written for \(summary.tiles) tiles: \(report.header)")
        #expect((report.header["root_length"]?.number ?? .infinity) <= 16_384 - 127, "the root fits the first 16 KB")
        #expect(report.tiles == summary.tiles && report.mbtiles_tiles == summary.tiles)
        #expect(report.mismatches == 0, "every tile read through the leaves equals the MBTiles' tile")
    }
}

import Foundation
import QuakeCatalog
import QuakeBundles
import QuakeTiles
import Testing
import TestSupport

/// No tile over the byte or feature limit: the guard thins further, and says so.
@Suite struct SizeGuardTests {
    /// A week of June 2018 holds the Kīlauea swarm: hundreds of events in one z7 tile.
    static let sample = "feed-all_week-2018-06.geojson.gz"

    @Test(arguments: [(20_000, 200_000), (500_000, 120)])
    func tilesStayUnderTheLimitsAndTheCutsAreReported(maxBytes: Int, maxFeatures: Int) async throws {
        let dir = TemporaryDirectory("guard")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let events = try store.events()
        let summary = try ExportHelpers.export(store, to: dir.path("bundles")) {
            $0.thinning.maxZoom = 7
            $0.thinning.maxTileBytes = maxBytes
            $0.thinning.maxTileFeatures = maxFeatures
        }
        #expect(!summary.warnings.isEmpty)
        #expect(summary.warnings.contains { $0.hasPrefix("tile 7/") }, "\(summary.warnings)")
        let manifest = try JSON(reading: Data(contentsOf: summary.directory.appendingPathComponent("manifest.json")))
        guard case .array(let warnings)? = manifest["warnings"] else { Issue.record("no warnings in the manifest"); return }
        #expect(warnings.count == summary.warnings.count)

        let report = try await BundleReport.read(summary.directory)
        var zoomsByID: [String: [Int]] = [:]
        for tile in report.mbtiles.tiles {
            #expect(tile.bytes <= maxBytes)
            // The limit is on the features drawn (events and clusters); the heat layer holds at
            // most one point per 8-pixel cell (HeatLayer), whatever the limit (the witness lists each point).
            let drawn = [TileEncoder.eventLayer, TileEncoder.clusterLayer].reduce(0) { $0 + (tile.layers[$1]?.features.count ?? 0) }
            #expect(drawn <= maxFeatures)
            #expect((tile.layers[HeatLayer.name]?.features.count ?? 0) <= 1 << (2 * HeatLayer.cellBits))
            for feature in tile.layers[TileEncoder.eventLayer]?.features ?? [] { zoomsByID[feature.properties["id"]!.string!, default: []].append(tile.z) }
        }
        #expect(zoomsByID.count < events.count, "some events are shown only in clusters")
        for (id, zooms) in zoomsByID { #expect(zooms == Array(zooms.min()!...7), "\(id) at \(zooms)") }
        for zoom in 0...7 {
            let tiles = report.mbtiles.tiles.filter { $0.z == zoom }
            let shown = tiles.reduce(0) { $0 + ($1.layers[TileEncoder.eventLayer]?.features.count ?? 0) }
            let clustered = tiles.reduce(0) { sum, tile in
                sum + (tile.layers[TileEncoder.clusterLayer]?.features ?? []).reduce(0) { $0 + Int($1.properties["point_count"]!.number!) }
            }
            #expect(shown + clustered == events.count, "zoom \(zoom)")
        }
        // The cut keeps the biggest quakes: nothing dropped at z7 outranks what is kept in its tile.
        let largestDropped = Set(events.keys).subtracting(zoomsByID.keys).compactMap { events[$0]?.mag }.max() ?? -9
        #expect(largestDropped < 5.5)
    }

    /// A tile of 8,000 events or more is sized from a sample first: one clearly too big is not
    /// encoded whole, and a full and an incremental export cut it alike.
    @Test func aBigTileIsSizedFromASample() async throws {
        let dir = TemporaryDirectory("guard-sample")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample, "feed-all_week-2020-06.geojson.gz"])
        let events = try store.events()
        #expect(events.count >= 8_000)
        let configure: (inout ExportOptions) -> Void = {
            $0.thinning.maxZoom = 0  // every event in tile 0/0/0
            $0.thinning.maxTileBytes = 100_000
        }
        let log = RecordedLog()
        let first = try ExportHelpers.export(store, to: dir.path("bundles"), logger: log.logger, configure)
        #expect(first.warnings.contains { $0.hasPrefix("tile 0/0/0:") }, "\(first.warnings)")
        let report = try await BundleReport.read(first.directory)
        #expect(report.mbtiles.tiles.count == 1 && report.mbtiles.tiles.allSatisfy { $0.bytes <= 100_000 })
        // Encoded: the sample, then the cut tile; never all the events at once.
        let made = try #require(log.messages.first { $0.contains("thinned and made") })
        let encoded = try #require(made.firstMatch(of: /encoded: (\d+) features/).flatMap { Int($0.1) })
        #expect(encoded < events.count, "\(made)")

        var changed = try #require(events.values.max { ($0.mag ?? 0, $0.id) < ($1.mag ?? 0, $1.id) })
        changed.updated += 1
        changed.mag = (changed.mag ?? 0) + 0.1
        try store.upsert([changed])
        let incremental = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        let full = try ExportHelpers.export(store, to: dir.path("full")) { configure(&$0); $0.reuseTiles = false }
        #expect(incremental.changed && incremental.rowsRead == 1)
        #expect(ExportHelpers.differences(incremental.directory, full.directory) == [])
    }
}

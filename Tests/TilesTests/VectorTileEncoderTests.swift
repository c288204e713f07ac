import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import Testing
import TestSupport

/// The hand-written MVT encoder, decoded by the independent Python `mapbox-vector-tile` package.
@Suite struct VectorTileEncoderTests {
    @Test func encodedTilesDecodeWithEveryValueIntact() async throws {
        var events = TilesFixture.events(["feed-2.5_month-2025-10.geojson.gz"]).filter { (event: QuakeEvent) -> Bool in
            event.longitude! < -100 && event.latitude! > 30 && event.latitude! < 50
        }
        #expect(events.count > 20)
        events[0].place = "Ñuñoa, Chile — 東京 \"quoted\""
        events[0].time = -123_456_789_000
        events[0].mag = 4.53
        events[0].depthKm = -1.5
        events[0].alert = nil
        events[1].mag = nil
        let table = TilesFixture.table(events)
        var options = ThinningOptions()
        options.maxZoom = 4
        let points = PointSet(table: table, buildTimeOrder: false)
        let thinning = Thinning(points: points, options: options)
        let ids = FeatureID.assign(table)
        let encoder = TileEncoder(table: table, points: points, featureIDs: ids, minZoom: thinning.minZoom)
        let dir = TemporaryDirectory("mvt")
        for zoom in [2, 4] {
            for run in TileRun.all(points: points, zoom: zoom) {
                let content = try #require(TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options))
                let file = dir.path("\(zoom)-\(run.key.x)-\(run.key.y).mvt.gz")
                try Gzip.compress(Data(encoder.encode(content))).write(to: file)
                let decoded = try JSONDecoder().decode([String: DecodedLayer].self, from: await WitnessScript.run("tiles_witness.py", ["decode", file.path]))
                let quakes = try #require(decoded["quakes"])
                #expect(quakes.version == 2 && quakes.extent == 4096)
                #expect(quakes.features.map(\.id) == content.events.map { ids[Int($0)] as UInt64? })
                for (feature, e) in zip(quakes.features, content.events.map(Int.init)) {
                    let event = events[e]
                    #expect(feature.type == "Point")
                    #expect(feature.properties["id"] == .string(event.id))
                    #expect(feature.properties["mag"] == event.mag.map(JSON.number))
                    #expect(feature.properties["time"] == .number(Double(event.time!)))
                    #expect(feature.properties["depth_km"] == event.depthKm.map(JSON.number))
                    #expect(feature.properties["place"] == event.place.map(JSON.string))
                    #expect(feature.properties["alert"] == event.alert.map(JSON.string))
                    #expect(feature.properties["minzoom"] == .number(Double(thinning.minZoom[e])))
                    #expect(feature.x == Int(WebMercator.tileUnits(points.worldX[e], zoom: zoom)))
                    #expect(feature.y == Int(WebMercator.tileUnits(points.worldY[e], zoom: zoom)))
                }
                let clusters = decoded["clusters"]?.features ?? []
                #expect(clusters.count == content.clusters.count)
                for (feature, cluster) in zip(clusters, content.clusters) {
                    #expect(feature.properties["point_count"] == .number(Double(cluster.count)))
                    #expect(feature.properties["expand_zoom"] == .number(Double(cluster.expandZoom)))
                    #expect(feature.id == cluster.featureID)
                }
                // The heat layer: every event of the tile, drawn or not, in one of its cells.
                let heat = decoded[HeatLayer.name]?.features ?? []
                #expect(heat.reduce(0) { $0 + $1.points.count } == content.heat.count)
                #expect(heat.reduce(0) { $0 + $1.points.count * Int($1.properties[HeatLayer.countField]?.number ?? 0) } == run.range.count)
            }
        }
    }
}

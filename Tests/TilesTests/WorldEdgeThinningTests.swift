import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import Testing

/// The spacing thinning at the edges of the Web Mercator world: quakes between 85° and
/// 85.0511° of latitude, quakes beyond (drawn on the edge), quakes at ±180° of longitude
/// (no wrap across the antimeridian), alone and among bigger neighbours, checked against
/// the rule recomputed here (`ScreenRule`) at every zoom, in the thinning and in the tiles.
@Suite struct WorldEdgeThinningTests {
    static let maxZoom = 8

    /// `us7000q1ig` (M5.1, 96.4385 E, 85.0258 N) and its neighbours in the real 440k catalog
    /// (../shared/data/usgs/csv/all_day-union-2022-2026.csv.gz): `us6000mfs3`, an M5.1 at
    /// 85.4033 N that sorts first, is beyond the world's edge and drawn on it, 7 px away at zoom 0.
    static let severnayaZemlya: [QuakeEvent] = [
        ("us7000q1ig", 96.4385, 85.0258, 5.1), ("us6000mfs3", 91.3605, 85.4033, 5.1), ("us7000q1pg", 96.521, 84.9338, 5.1),
        ("us7000q1ik", 97.0856, 85.0758, 4.9), ("us7000kayx", 94.0956, 85.038, 4.8), ("us7000q1q1", 97.1846, 84.9134, 4.8),
        ("us7000kaz0", 96.9065, 85.0174, 4.5), ("us6000i3aj", 95.9913, 84.9777, 4.5), ("us7000q1er", 96.6121, 85.0803, 4.4),
        ("us6000q4di", 113.5818, 83.5057, 5.4), ("us7000qxn3", 112.2311, 83.7505, 5.1), ("us7000qxpt", 112.5366, 83.8394, 4.9),
        ("us6000qiw2", 47.361, 87.0279, 5.3), ("us6000m4dj", 67.4187, 86.513, 4.7), ("us6000kb00", 33.1245, 86.2496, 4.7),
    ].map { TilesFixtureEvent.make(id: $0.0, lon: $0.1, lat: $0.2, mag: $0.3) }

    @Test(arguments: [false, true])
    func theRealQuakeAtTheEdgeIsDrawnAtZoomZero(recentApart: Bool) {
        let events = Self.severnayaZemlya
        let minZoom = Self.check(events, apart: recentApart ? Set(["us7000q1ik", "us6000m4dj"]) : [])
        #expect(minZoom["us7000q1ig"] == 0, "the biggest within 32 px of itself among the map's quakes")
        #expect(minZoom["us6000mfs3"] == 0, "a quake beyond the edge is still drawn on it when nothing kept is near")
        #expect(minZoom["us6000qiw2"] == 0)
    }

    @Test(arguments: [false, true])
    func quakesAtTheEdgesAloneAndAmongBiggerNeighboursAreDrawnWhereTheRuleSays(recentApart: Bool) {
        var random = SeededGenerator(seed: 85_0511)
        var events: [QuakeEvent] = []
        func add(_ count: Int, _ prefix: String, lon: ClosedRange<Double>, lat: ClosedRange<Double>) {
            for i in 0..<count {
                let lonValue = lon.lowerBound + (lon.upperBound - lon.lowerBound) * random.nextUnit()
                let latValue = lat.lowerBound + (lat.upperBound - lat.lowerBound) * random.nextUnit()
                // Magnitudes in tenths, many ties (broken by id), a few unknown.
                let mag: Double? = random.next() % 16 == 0 ? nil : Double(30 + random.next() % 35) / 10
                events.append(TilesFixtureEvent.make(id: "\(prefix)\(i)", lon: lonValue, lat: latValue, mag: mag))
            }
        }
        let edge = ScreenRule.maximumLatitude
        add(80, "north", lon: 85...105, lat: 84.9...(edge - 1e-9))
        add(25, "beyond-north", lon: 85...105, lat: edge...90)
        add(60, "south", lon: -70 ... -50, lat: -(edge - 1e-9) ... -84.9)
        add(20, "beyond-south", lon: -70 ... -50, lat: -90 ... -edge)
        add(60, "east", lon: 179.6...180, lat: -25 ... -15)
        add(60, "west", lon: -180 ... -179.6, lat: -25 ... -15)
        add(30, "corner", lon: 179.8...180, lat: 84.98...88)
        // On the lines themselves, and quakes alone: each the biggest within 32 px at zoom 0.
        events += [
            TilesFixtureEvent.make(id: "on-east", lon: 180, lat: -20, mag: 6.5), TilesFixtureEvent.make(id: "on-west", lon: -180, lat: -20, mag: 6.5),
            TilesFixtureEvent.make(id: "on-edge", lon: 95, lat: edge, mag: 3.1), TilesFixtureEvent.make(id: "pole", lon: 100, lat: 90, mag: 3.2),
            TilesFixtureEvent.make(id: "alone-north", lon: 0, lat: 85.03, mag: 2.0), TilesFixtureEvent.make(id: "alone-south", lon: 30, lat: -85.04, mag: nil),
            TilesFixtureEvent.make(id: "alone-east", lon: 180, lat: 40, mag: 2.5), TilesFixtureEvent.make(id: "alone-west", lon: -180, lat: 40, mag: 2.5),
            TilesFixtureEvent.make(id: "alone-beyond", lon: -60, lat: 89, mag: 4.0), TilesFixtureEvent.make(id: "alone-corner", lon: -180, lat: 85.05, mag: 3.0),
        ]
        let apart = recentApart ? Set(events.indices.filter { $0 % 7 == 3 }.map { events[$0].id }) : []
        let minZoom = Self.check(events, apart: apart)
        for id in ["on-east", "on-west", "alone-north", "alone-south", "alone-east", "alone-west", "alone-beyond", "alone-corner"] where !apart.contains(id) {
            #expect(minZoom[id] == 0, "\(id) has no quake within 32 px at zoom 0")
        }
    }

    /// Thins `events` (those named in `apart` held apart, drawn at every zoom, as the recent
    /// layer is) and checks that every quake the rule names at a zoom is drawn there and is in
    /// its tile; returns the held events' first zooms by id.
    @discardableResult
    static func check(_ events: [QuakeEvent], apart: Set<String>) -> [String: Int] {
        var options = ThinningOptions()
        options.maxZoom = maxZoom
        let table = TilesFixture.table(events)
        let held = events.map { !apart.contains($0.id) }
        let points = PointSet(table: table, buildTimeOrder: false, including: apart.isEmpty ? nil : held)
        let thinning = Thinning(points: points, options: options)
        let order = ScreenRule.sweepOrder(events)
        for zoom in 0..<maxZoom {
            let maxima = ScreenRule.maxima(events, order: order, zoom: zoom)
            #expect(!maxima.isEmpty)
            let missed = maxima.filter { held[$0] && thinning.minZoom[$0] > zoom }.map { events[$0].id }
            #expect(missed.isEmpty, "zoom \(zoom): \(missed.count) of \(maxima.count) quakes the rule names are not drawn: \(missed.prefix(5))")
            var inTiles = Set<UInt32>()
            for run in TileRun.all(points: points, zoom: zoom) {
                inTiles.formUnion(TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options)?.events ?? [])
            }
            let drawn = events.indices.filter { held[$0] && thinning.minZoom[$0] <= zoom }
            #expect(drawn.allSatisfy { inTiles.contains(UInt32($0)) }, "zoom \(zoom): every quake drawn is in its tile")
        }
        #expect(events.indices.allSatisfy { !held[$0] || thinning.minZoom[$0] <= maxZoom }, "the maximum zoom draws every quake")
        return Dictionary(uniqueKeysWithValues: events.indices.filter { held[$0] }.map { (events[$0].id, Int(thinning.minZoom[$0])) })
    }
}

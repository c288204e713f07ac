import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import TestSupport
import Testing

/// Feature ids, Web Mercator, tile keys.
@Suite struct PrimitivesTests {
    @Test func featureIDsMatchAnIndependentImplementation() async throws {
        let ids = ["us7000abcd", "ci40123456", "nc73912345", "ak0241ha8yl1", "", "hv70306777", "Ñuñoa-東京"]
        let python = try JSONDecoder().decode([String: UInt64].self, from: await WitnessScript.run("tiles_witness.py", ["featureids"] + ids))
        for id in ids {
            #expect(FeatureID.base(Array(id.utf8)) == python[id], "\(id)")
            #expect(FeatureID.base(Array(id.utf8)) < 1 << 53)
        }
    }

    @Test func collidingFeatureIDsAreResolvedDeterministically() {
        let count = 200
        let events = (0..<count).map { i in TilesFixtureEvent.make(id: "ev\(i)", lon: Double(i % 360) - 180, lat: 0) }
        let table = TilesFixture.table(events)
        let assigned = FeatureID.assign(table, bits: 10)  // 200 ids in 1,024 numbers: about 20 collide
        let narrow = (0..<count).map { assigned[$0] }
        #expect(Set(narrow).count == count)
        let again = FeatureID.assign(table, bits: 10)
        #expect(narrow == (0..<count).map { again[$0] })
        // The smallest id of a colliding group keeps its base number; the others moved.
        var groups: [UInt64: [Int]] = [:]
        for i in 0..<count { groups[FeatureID.base(Array("ev\(i)".utf8)) & 0x3FF, default: []].append(i) }
        #expect(groups.values.contains { $0.count > 1 })
        for (base, members) in groups {
            let first = members.min { Array("ev\($0)".utf8).lexicographicallyPrecedes(Array("ev\($1)".utf8)) }!
            #expect(narrow[first] == base)
        }
        let wide = FeatureID.assign(table)
        #expect((0..<count).map { wide[$0] } == (0..<count).map { FeatureID.base(Array("ev\($0)".utf8)) })
    }

    @Test func webMercatorPutsTheAntimeridianOnTheWorldEdges() {
        #expect(WebMercator.worldX(longitude: -180) == 0)
        #expect(WebMercator.worldX(longitude: 180) == UInt32.max)
        for zoom in [0, 1, 5, 12, 16] {
            #expect(WebMercator.tileIndex(WebMercator.worldX(longitude: 180), zoom: zoom) == UInt32((1 << zoom) - 1))
            #expect(WebMercator.tileUnits(WebMercator.worldX(longitude: 180), zoom: zoom) == 4096)
            #expect(WebMercator.tileIndex(WebMercator.worldX(longitude: -180), zoom: zoom) == 0)
            #expect(WebMercator.tileUnits(WebMercator.worldX(longitude: -180), zoom: zoom) == 0)
            #expect(WebMercator.tileIndex(WebMercator.worldX(longitude: 179.9999), zoom: zoom) == UInt32((1 << zoom) - 1))
        }
        #expect(WebMercator.worldY(latitude: 89.9) == 0)
        #expect(WebMercator.worldY(latitude: -89.9) == UInt32.max)
        #expect(WebMercator.worldY(latitude: 0) == 1 << 31)
    }

    @Test func tileUnitsAreWithinHalfAUnitOfTheExactPosition() {
        var worst = 0.0
        for i in 0..<2000 {
            let lon = Double(i) * 0.1791 - 179.0, lat = Double(i) * 0.0841 - 84.0
            for zoom in [0, 3, 8, 12, 16] {
                let x = WebMercator.worldX(longitude: lon), y = WebMercator.worldY(latitude: lat)
                let exact = ((lon + 180) / 360 * Double(1 << zoom) - Double(WebMercator.tileIndex(x, zoom: zoom))) * 4096
                worst = max(worst, abs(Double(WebMercator.tileUnits(x, zoom: zoom)) - exact))
                let back = WebMercator.latitude(worldY: y)
                #expect(abs(back - lat) < 1e-6)
            }
        }
        #expect(worst <= 0.5 + 1e-6)
    }

    @Test func pmtilesIDsMatchThePMTilesPackage() async throws {
        var keys: [TileKey] = [TileKey(z: 0, x: 0, y: 0)]
        for z in [1, 2, 3, 7, 12, 16] {
            let n = UInt32(1) << UInt32(z)
            for (x, y) in [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1), (n / 3, n / 2), (n / 2 + 1, n / 5)] {
                keys.append(TileKey(z: z, x: min(x, n - 1), y: min(y, n - 1)))
            }
        }
        let python = try JSONDecoder().decode([String: UInt64].self, from: await WitnessScript.run("tiles_witness.py", ["tileids"] + keys.map(\.description)))
        for key in keys {
            #expect(key.pmtilesID == python[key.description], "\(key)")
            #expect(TileKey(packed: key.packed) == key)
            #expect(key.tmsRow == UInt32((1 << key.z) - 1) - key.y)
        }
    }

    @Test func magnitudeFloorsParseAndApplyFromTheirZoomOn() throws {
        let floors = try MagnitudeFloors(parsing: "0:6,3:5,5:4,7:3")
        #expect(floors.floor(at: 0) == 6 && floors.floor(at: 2) == 6 && floors.floor(at: 3) == 5)
        #expect(floors.floor(at: 6) == 4 && floors.floor(at: 12) == 3)
        #expect(try MagnitudeFloors(parsing: "4:4.5").floor(at: 3) == nil)
        #expect(floors.description == "0:6,3:5,5:4,7:3")
        for bad in ["3", "a:5", "3:x", "3:5,3:4", "20:5", ""] {
            #expect(throws: (any Error).self) { try MagnitudeFloors(parsing: bad) }
        }
    }
}

/// Synthetic events for the primitive tests.
enum TilesFixtureEvent {
    static func make(id: String, lon: Double, lat: Double, mag: Double? = 3, time: Int64 = 1_600_000_000_000) -> QuakeEvent {
        var event = QuakeEvent(id: id, updated: time, time: time, longitude: lon, latitude: lat)
        event.mag = mag
        return event
    }
}

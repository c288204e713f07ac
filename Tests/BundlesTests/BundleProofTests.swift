import Foundation
import QuakeCatalog
import QuakeBundles
import QuakeTiles
import Testing
import TestSupport

/// Issue 5's proof: the shared bundle read back by independent readers.
@Suite struct BundleProofTests {
    let bundle: ProofBundle

    init() async throws { bundle = try await ProofBundle.shared.value }

    @Test func everyTileDecodesWithMapboxVectorTile() throws {
        let tiles = bundle.report.mbtiles.tiles
        #expect(tiles.count == bundle.summary.tiles)
        #expect(Set(tiles.map(\.z)) == Set(0...ProofBundle.maxZoom))
        for tile in tiles {
            #expect(!tile.layers.isEmpty)
            #expect(Set(tile.layers.keys).isSubset(of: [TileEncoder.eventLayer, TileEncoder.clusterLayer, HeatLayer.name]))
            #expect((tile.layers[HeatLayer.name] != nil) == (tile.z <= HeatLayer.maxZoom), "the heat layer at zooms 0–\(HeatLayer.maxZoom) only")
            for (name, layer) in tile.layers {
                #expect(layer.version == 2 && layer.extent == (name == HeatLayer.name ? 128 : 4096))
                #expect(!layer.features.isEmpty)
                if name == HeatLayer.name { continue }  // multipoints, no ids
                #expect(Set(layer.features.compactMap(\.id)).count == layer.features.count, "feature ids unique in \(tile.z)/\(tile.x)/\(tile.y)")
            }
            for feature in tile.layers[TileEncoder.eventLayer]?.features ?? [] {
                #expect(feature.properties["id"]?.string != nil)
                #expect(feature.properties["time"]?.number != nil)
                #expect(feature.properties["minzoom"]?.number != nil)
                #expect(feature.x >= 0 && feature.x <= 4096 && feature.y >= 0 && feature.y <= 4096)
            }
        }
    }

    @Test func pmtilesArchiveReadsAndEqualsTheMBTiles() throws {
        let pm = bundle.report.pmtiles
        let mbtiles = Set(bundle.report.mbtiles.tiles.map { BundleReport.PMTile(z: $0.z, x: $0.x, y: $0.y, sha256: $0.sha256) })
        #expect(Set(pm.tiles) == mbtiles)
        #expect(pm.tiles.count == mbtiles.count)
        #expect(pm.get_mismatches == 0)
        #expect(pm.header["clustered"] == .bool(true))
        #expect(pm.header["tile_compression"]?.number == 2 && pm.header["internal_compression"]?.number == 2)
        #expect(pm.header["tile_type"]?.number == 1)
        #expect(pm.header["min_zoom"]?.number == 0 && pm.header["max_zoom"]?.number == Double(ProofBundle.maxZoom))
        #expect(pm.header["addressed_tiles_count"]?.number == Double(mbtiles.count))
        let rootEnd = (pm.header["root_offset"]?.number ?? 0) + (pm.header["root_length"]?.number ?? 1e9)
        #expect(rootEnd <= 16_384)
        #expect(pm.metadata["vector_layers"] != nil)
    }

    @Test func ogrinfoOpensTheMBTiles() async throws {
        let ogrinfo = try await ChildProcess.run("ogrinfo", ["-ro", "-so", bundle.directory.appendingPathComponent("quakes.mbtiles").path])
        #expect(ogrinfo.status == 0, "\(ogrinfo.standardError)")
        #expect(ogrinfo.standardOutput.contains("quakes ("))
        #expect(ogrinfo.standardOutput.contains("clusters ("))
    }

    @Test func mbtilesMetadataFollowsTheSpec() throws {
        let metadata = bundle.report.mbtiles.metadata
        #expect(metadata["format"] == "pbf")
        #expect(metadata["name"] == "quakes")
        #expect(metadata["minzoom"] == "0" && metadata["maxzoom"] == String(ProofBundle.maxZoom))
        #expect(metadata["bounds"]?.split(separator: ",").count == 4)
        #expect(metadata["center"]?.split(separator: ",").count == 3)
        #expect(bundle.report.mbtiles.application_id == 0x4d50_4258)
        let json = try JSON(reading: Data(metadata["json"]!.utf8))
        guard case .array(let layers)? = json["vector_layers"] else { Issue.record("no vector_layers"); return }
        let quakes = layers.first { $0["id"]?.string == "quakes" }
        for attribute in EventAttribute.defaults {
            #expect(quakes?["fields"]?[attribute.rawValue]?.string == attribute.fieldType)
        }
        #expect(layers.contains { $0["id"]?.string == "clusters" && $0["fields"]?["point_count"] == .string("Number") })
        #expect(json["tilestats"]?["layers"] != nil)
        for tile in bundle.report.mbtiles.tiles { #expect(tile.tms_row == (1 << tile.z) - 1 - tile.y) }
    }

    @Test func maxZoomShowsEverySelectedEventExactlyOnce() throws {
        let features = bundle.eventFeatures(zoom: ProofBundle.maxZoom)
        let ids = features.compactMap { $0.feature.properties["id"]?.string }
        #expect(ids.count == bundle.events.count)
        #expect(Set(ids) == Set(bundle.events.keys))
        #expect(Set(features.compactMap(\.feature.id)).count == features.count)
        #expect(bundle.clusterFeatures(zoom: ProofBundle.maxZoom).isEmpty)
        for (_, feature) in features.prefix(200) {
            #expect(feature.id == FeatureID.base(Array(feature.properties["id"]!.string!.utf8)))
        }
    }

    @Test func everyDecodedPointLiesWithinOnePixelOfItsTruePosition() throws {
        var worst = 0.0
        for zoom in 0...ProofBundle.maxZoom {
            for (tile, feature) in bundle.eventFeatures(zoom: zoom) {
                let event = try #require(bundle.events[feature.properties["id"]!.string!])
                let expected = ReferenceMercator.global(longitude: event.longitude!, latitude: event.latitude!, zoom: zoom)
                let dx = abs(Double(tile.x * 4096 + feature.x) - expected.x)
                let dy = abs(Double(tile.y * 4096 + feature.y) - expected.y)
                worst = max(worst, dx, dy)
            }
        }
        // One unit of the 4096 extent: a sixteenth of a screen pixel on a 256-pixel tile.
        #expect(worst <= 1.0, "worst distance \(worst) tile units")
    }

    @Test func aQuakeShownAtAZoomIsShownAtEveryHigherZoom() throws {
        var zoomsByID: [String: [Int]] = [:]
        var minzoomByID: [String: Int] = [:]
        for zoom in 0...ProofBundle.maxZoom {
            for (_, feature) in bundle.eventFeatures(zoom: zoom) {
                let id = feature.properties["id"]!.string!
                zoomsByID[id, default: []].append(zoom)
                let minzoom = Int(feature.properties["minzoom"]!.number!)
                #expect(minzoomByID[id] == nil || minzoomByID[id] == minzoom)
                minzoomByID[id] = minzoom
            }
        }
        #expect(zoomsByID.count == bundle.events.count)
        for (id, zooms) in zoomsByID {
            #expect(zooms == Array(minzoomByID[id]!...ProofBundle.maxZoom), "\(id) appears at \(zooms)")
        }
        #expect(Set(minzoomByID.values).count > 5, "minzoom spreads over the zooms")
    }

    @Test func everyZoomDrawsTheBiggestOfEachNeighbourhoodAndEveryPlaceWithQuakes() throws {
        for zoom in 0..<ProofBundle.maxZoom {
            let drawnIDs = Set(bundle.eventFeatures(zoom: zoom).map { $0.feature.properties["id"]!.string! })
            let screen = ScreenSweep(bundle.events.values, zoom: zoom)
            for i in screen.biggestFirst() {
                #expect(drawnIDs.contains(screen.events[i].id), "zoom \(zoom): \(screen.events[i].id) is the biggest within 32 px and not drawn")
            }
            let far = screen.far(from: screen.events.indices.filter { drawnIDs.contains(screen.events[$0].id) }, radius: 12.01)
            #expect(far.isEmpty, "zoom \(zoom): \(far.count) events farther than 12 px from a drawn quake")
        }
    }

    @Test func clusterCountsAddUpToTheEventsTheyStandFor() throws {
        let total = bundle.events.count
        let cellUnits = bundle.options.thinning.cellSize * 16
        for zoom in 0..<ProofBundle.maxZoom {
            let shown = bundle.eventFeatures(zoom: zoom).count
            let clusters = bundle.clusterFeatures(zoom: zoom)
            let clustered = clusters.reduce(0) { $0 + Int($1.feature.properties["point_count"]!.number!) }
            #expect(shown + clustered == total, "zoom \(zoom): \(shown) shown + \(clustered) clustered ≠ \(total)")
            var cells = Set<UInt64>()
            for (tile, feature) in clusters {
                // The cluster id names its cell (row << 24 | column); its point lies in that cell.
                let id = try #require(feature.id)
                #expect(cells.insert(id).inserted, "two clusters in one cell at zoom \(zoom)")
                let (cellX, cellY) = (Int(id & 0xFF_FFFF), Int(id >> 24))
                let (x, y) = (tile.x * 4096 + feature.x, tile.y * 4096 + feature.y)
                #expect((cellX * cellUnits...(cellX + 1) * cellUnits).contains(x) && (cellY * cellUnits...(cellY + 1) * cellUnits).contains(y))
                let expand = Int(feature.properties["expand_zoom"]!.number!)
                #expect(expand > zoom && expand <= ProofBundle.maxZoom)
                #expect(feature.properties["first_time"]!.number! <= feature.properties["last_time"]!.number!)
            }
            let summary = try #require(bundle.summary.zooms.first { $0.zoom == zoom })
            #expect(summary.events == shown && summary.clusters == clusters.count && summary.clusteredEvents == clustered)
        }
    }

    /// Issue 48.2: the heat layer holds every quake of its tile, drawn or not, counted per 8-pixel
    /// cell, each count on a point at its cell's centre: the counts per cell are those of the
    /// events placed with the textbook formula, and add up to every event at every zoom.
    @Test func theHeatCountsEveryQuakeOfItsCell() throws {
        for zoom in 0...HeatLayer.maxZoom {
            let cellsAcross = (1 << zoom) * 64
            var expected: [[Int]: Int] = [:]
            for event in bundle.events.values {
                let p = ReferenceMercator.global(longitude: event.longitude!, latitude: event.latitude!, zoom: zoom)
                expected[[min(Int(p.x / 64), cellsAcross - 1), min(Int(p.y / 64), cellsAcross - 1)], default: 0] += 1
            }
            var found: [[Int]: Int] = [:]
            for tile in bundle.report.mbtiles.tiles where tile.z == zoom {
                for point in tile.layers[HeatLayer.name]?.features ?? [] {
                    #expect(point.x % 2 == 1 && point.y % 2 == 1 && (1..<128).contains(point.x) && (1..<128).contains(point.y), "a cell's centre")
                    let count = try #require(point.properties[HeatLayer.countField]?.number)
                    let cell = [tile.x * 64 + point.x / 2, tile.y * 64 + point.y / 2]
                    #expect(found[cell] == nil, "one point per cell")
                    found[cell] = Int(count)
                }
            }
            #expect(found.values.reduce(0, +) == bundle.events.count, "zoom \(zoom): every quake counted once")
            #expect(found == expected, "zoom \(zoom): \(found.count) cells, \(expected.count) expected")
        }
    }

    @Test func antimeridianEventsLandInTheRightTiles() throws {
        let last = (1 << ProofBundle.maxZoom) - 1
        var checked = 0
        for (tile, feature) in bundle.eventFeatures(zoom: ProofBundle.maxZoom) {
            let event = bundle.events[feature.properties["id"]!.string!]!
            guard abs(event.longitude!) >= 179 else { continue }
            #expect(tile.x == (event.longitude! > 0 ? last : 0), "\(event.id) at \(event.longitude!) in column \(tile.x)")
            checked += 1
        }
        #expect(checked >= 169)
        let edges = bundle.eventFeatures(zoom: ProofBundle.maxZoom).filter { $0.feature.properties["id"]?.string?.hasPrefix("qbtest180") == true }
        let east = try #require(edges.first { $0.feature.properties["id"]?.string == "qbtest180e" })
        let west = try #require(edges.first { $0.feature.properties["id"]?.string == "qbtest180w" })
        #expect(east.tile.x == last && east.feature.x == 4096)
        #expect(west.tile.x == 0 && west.feature.x == 0)
    }
}

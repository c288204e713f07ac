import Foundation
import GRDB
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// A selection without events (a quiet week under `--min-magnitude 7`) gives a complete bundle
/// without features, and a warning, not a failed bake; the next quake makes a normal one.
@Suite struct EmptyBundleTests {
    static let sample = "feed-2.5_month-2025-10.geojson.gz"

    @Test func anEmptySelectionGivesAValidEmptyBundle() async throws {
        let dir = TemporaryDirectory("empty")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let strongest = try #require(try store.events().values.compactMap(\.mag).max())
        let configure: (inout ExportOptions) -> Void = { $0.selection.minMagnitude = strongest + 0.5; $0.thinning.maxZoom = 4 }
        let summary = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        #expect(summary.changed && summary.events == 0 && summary.tiles == 0)
        #expect(summary.warnings.first?.contains("matches the selection; the bundle is empty") == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.path("bundles/current").path) == summary.directory.lastPathComponent)
        let bundle = summary.directory

        // MBTiles and PMTiles as third-party readers see them: valid, with no feature. The MBTiles
        // has no tile; a PMTiles directory must not be empty (spec 3.1), so it holds one empty tile.
        let report = try await BundleReport.read(bundle)
        #expect(report.mbtiles.tiles.isEmpty && report.mbtiles.application_id == 0x4d50_4258)
        #expect(report.mbtiles.metadata["format"] == "pbf" && report.mbtiles.metadata["maxzoom"] == "4")
        #expect(report.pmtiles.header["addressed_tiles_count"]?.number == 1 && report.pmtiles.header["tile_entries_count"]?.number == 1)
        #expect(report.pmtiles.header["min_zoom"]?.number == 0 && report.pmtiles.header["max_zoom"]?.number == 4)
        #expect(report.pmtiles.metadata["vector_layers"] != nil)
        let emptyTile = try Gzip.compress(Data())
        #expect(report.pmtiles.tiles == [BundleReport.PMTile(z: 0, x: 0, y: 0, sha256: SHA256.hex(emptyTile))])
        let tileFile = dir.path("empty-tile.mvt.gz")
        try emptyTile.write(to: tileFile)
        let layers = try JSONDecoder().decode([String: DecodedLayer].self, from: await WitnessScript.run("tiles_witness.py", ["decode", tileFile.path]))
        #expect(layers.isEmpty)
        let ogrinfo = try await ChildProcess.run("ogrinfo", ["-ro", "-so", bundle.appendingPathComponent("quakes.mbtiles").path])
        #expect(ogrinfo.status == 0, "\(ogrinfo.standardError)")

        // Every zoom has a GeoJSON FeatureCollection without features.
        for zoom in 0...4 {
            let json = try JSON(reading: Gzip.decompress(Data(contentsOf: bundle.appendingPathComponent("geojson/z\(zoom).geojson.gz"))))
            #expect(json["type"] == .string("FeatureCollection") && json["features"] == .array([]))
        }
        try Self.expectAnEmptyAppDatabase(bundle.appendingPathComponent("quakes.sqlite"))
        // Timeline, manifest, preview.
        let timeline = try JSON(reading: Data(contentsOf: bundle.appendingPathComponent("timeline.json")))
        #expect(timeline["days"] == .array([]) && timeline["total"]?.number == 0)
        let manifest = try JSON(reading: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        #expect(manifest["selection"]?["events"]?.number == 0 && manifest["selection"]?["first_time"] == .null)
        guard case .array(let warnings)? = manifest["warnings"] else { Issue.record("no warnings in the manifest"); return }
        #expect(warnings.contains { $0.string?.contains("the bundle is empty") == true })
        try PublishTests.verify(bundle)
        let preview = try String(contentsOf: bundle.appendingPathComponent("preview.html"), encoding: .utf8)
        #expect(preview.contains("\"events\":0,"))

        // Nothing changed: no new version; then the selection fills, and a bundle with the event follows.
        #expect(try !ExportHelpers.export(store, to: dir.path("bundles"), configure).changed)
        var quake = try #require(try store.events().values.min { $0.id < $1.id })
        quake.mag = strongest + 1
        quake.updated += 1
        try store.upsert([quake])
        let filled = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        let full = try ExportHelpers.export(store, to: dir.path("full"), configure)
        #expect(filled.events == 1 && filled.warnings.isEmpty && filled.rowsRead == 1)
        #expect(ExportHelpers.differences(filled.directory, full.directory) == [])
    }
    /// With a recent layer asked for, an empty selection has none (there is no newest quake to
    /// count its boundary from): no `recent` member, no recent.geojson, no `recent_since`.
    @Test func anEmptySelectionHasNoRecentLayer() throws {
        let dir = TemporaryDirectory("empty-recent")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let strongest = try #require(try store.events().values.compactMap(\.mag).max())
        let summary = try ExportHelpers.export(store, to: dir.path("bundles")) {
            $0.selection.minMagnitude = strongest + 0.5
            $0.thinning.maxZoom = 4
            $0.recentDays = .days(7)
        }
        #expect(summary.events == 0)
        let manifest = try JSON(reading: Data(contentsOf: summary.directory.appendingPathComponent("manifest.json")))
        #expect(manifest["recent"] == nil)
        #expect(!FileManager.default.fileExists(atPath: summary.directory.appendingPathComponent("recent.geojson").path))
        let since = try DatabaseQueue(path: summary.directory.appendingPathComponent("quakes.sqlite").path).read {
            try String.fetchOne($0, sql: "SELECT value FROM info WHERE name = 'recent_since'")
        }
        #expect(since == nil)
    }

    /// The app database: empty, with its R-tree and indexes.
    private static func expectAnEmptyAppDatabase(_ url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('events_rtree')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events_rtree WHERE min_lon <= 180 AND max_lon >= -180") == 0)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM info WHERE name = 'events'") == "0")
        }
    }
}

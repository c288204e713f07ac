import Foundation
import GRDB
import QuakeBundleFormat
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeStore
import QuakeTiles
import Testing
import TestSupport

/// The non-tile files of the shared bundle: app database, GeoJSON, timeline, manifest, preview.
@Suite struct BundleFilesTests {
    let bundle: ProofBundle

    init() async throws { bundle = try await ProofBundle.shared.value }

    private func appDatabase() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: bundle.directory.appendingPathComponent("quakes.sqlite").path, configuration: configuration)
    }

    @Test func appDatabaseIsPlainSQLiteWithAValidRTreeAndIndexes() throws {
        try appDatabase().read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('events_rtree')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == bundle.events.count)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events_rtree") == bundle.events.count)
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master")
            #expect(Set(["events_id", "events_time", "events_mag", "events_rtree"]).isSubset(of: names))
            let schema = try String.fetchAll(db, sql: "SELECT coalesce(sql, '') FROM sqlite_master").joined(separator: "\n").lowercased()
            #expect(!schema.contains("spatialite") && !schema.contains("geometry"))
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM events WHERE time > 0 ORDER BY time")
                .map { $0["detail"] as String }.joined()
            #expect(plan.contains("events_time"))
        }
    }

    /// The app database's `events` columns are the store's contract columns, same names, types and
    /// order, and every attribute a tile can carry (but the computed `minzoom`) is one of them.
    @Test func appDatabaseColumnsAreTheStoreContractColumns() throws {
        let columns = try appDatabase().read { db in
            try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('events') ORDER BY cid").map { "\($0[0] as String) \($0[1] as String)" }
        }
        #expect(columns == StoreColumns.contract.map { "\($0.name) \($0.type.rawValue)" })
        // The format's declaration of `events` (QuakeBundleFormat) is the contract: names, types, NOT NULLs, order.
        #expect(AppDatabaseSchema.eventColumns.map(\.definition) == StoreColumns.contract.map(\.definition))
        for attribute in EventAttribute.allCases where attribute != .minzoom {
            let column = try #require(StoreColumns.contract.first { $0.name == attribute.storeColumn }, "\(attribute) is no contract column")
            switch attribute.kind {
            case .text, .category: #expect(column.type == .text, "\(attribute)")
            case .real: #expect(column.type == .real, "\(attribute)")
            case .integer: #expect(column.type == .integer, "\(attribute)")
            case .computed: Issue.record("\(attribute) is computed")
            }
        }
    }

    @Test(arguments: [(-156.0, 18.5, -154.5, 20.5), (-125.0, 32.0, -114.0, 42.0), (178.5, -25.0, 180.0, -10.0), (-10.0, -10.0, 10.0, 10.0)])
    func appDatabaseAnswersBoundingBoxQueries(box: (Double, Double, Double, Double)) throws {
        let (west, south, east, north) = box
        let expected = Set(bundle.events.values.filter {
            $0.longitude! >= west && $0.longitude! <= east && $0.latitude! >= south && $0.latitude! <= north
        }.map(\.id))
        let found = try appDatabase().read { db in
            try String.fetchAll(db, sql: """
                SELECT e.id FROM events e JOIN events_rtree r ON r.id = e.rowid
                 WHERE r.min_lon <= ? AND r.max_lon >= ? AND r.min_lat <= ? AND r.max_lat >= ?
                   AND e.longitude BETWEEN ? AND ? AND e.latitude BETWEEN ? AND ?
                """, arguments: [east, west, north, south, west, east, south, north])
        }
        #expect(Set(found) == expected)
        #expect(found.count == expected.count)
    }

    @Test func aTileFeatureFindsItsRowByItsFeatureID() throws {
        let features = bundle.eventFeatures(zoom: ProofBundle.maxZoom)
        #expect(features.count == bundle.events.count)
        let rows = try appDatabase().read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT rowid, id FROM events").map { ($0[0] as Int64, $0[1] as String) })
        }
        for (_, feature) in features {
            let featureID = try #require(feature.id)
            #expect(rows[Int64(featureID)] == feature.properties["id"]?.string)
        }
    }

    @Test func appDatabaseKeepsTheDetailFields() throws {
        let source = Dictionary(uniqueKeysWithValues: CatalogFile.read(TestData.usgs("feed-all_week-2018-06.geojson.gz")).events.map { ($0.id, $0) })
        try appDatabase().read { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, place, title, url, mag_type, net, code, time FROM events ORDER BY rowid LIMIT 300") {
                guard let event = source[row["id"]] else { continue }
                #expect(row["place"] == event.place && row["title"] == event.title && row["url"] == event.url)
                #expect(row["mag_type"] == event.magType && row["net"] == event.net && row["code"] == event.code)
                #expect(row["time"] == event.time)
            }
        }
    }

    @Test func geoJSONFilesHoldTheThinnedSetOfTheirZoom() throws {
        for zoom in 0...ProofBundle.maxZoom {
            let url = bundle.directory.appendingPathComponent("geojson/z\(zoom).geojson.gz")
            let json = try JSON(reading: Gzip.decompress(Data(contentsOf: url)))
            guard case .array(let features)? = json["features"] else { Issue.record("z\(zoom): no features"); continue }
            let events = features.filter { $0["properties"]?["cluster"] == nil }
            let clusters = features.filter { $0["properties"]?["cluster"] == .bool(true) }
            let tileIDs = bundle.eventFeatures(zoom: zoom).map { $0.feature.properties["id"]!.string! }
            #expect(Set(events.compactMap { $0["id"]?.string }) == Set(tileIDs) && events.count == tileIDs.count)
            #expect(clusters.count == bundle.clusterFeatures(zoom: zoom).count)
            for feature in events.prefix(100) {
                let event = bundle.events[feature["id"]!.string!]!
                #expect(feature["geometry"]?["coordinates"] == .array([.number(event.longitude!), .number(event.latitude!)]))
                #expect(feature["properties"]?["mag"]?.number == event.mag)
            }
        }
    }

    @Test func timelineCountsEveryEventOnce() throws {
        let json = try JSON(reading: Data(contentsOf: bundle.directory.appendingPathComponent("timeline.json")))
        guard case .array(let days)? = json["days"], case .array(let bands)? = json["bands"] else { Issue.record("no days"); return }
        #expect(bands.count == 8)
        var perDay: [String: Int] = [:]
        for event in bundle.events.values { perDay[String(ISOTime.format(milliseconds: event.time!).prefix(10)), default: 0] += 1 }
        var total = 0
        for day in days {
            guard case .array(let pair) = day, case .array(let counts) = pair[1] else { continue }
            let sum = counts.reduce(0) { $0 + Int($1.number!) }
            #expect(perDay[pair[0].string!] == sum)
            total += sum
        }
        #expect(total == bundle.events.count && json["total"]?.number == Double(bundle.events.count))
        #expect(days.count == perDay.count)
    }

    @Test func manifestListsEveryFileWithItsSizeAndHash() throws {
        let text = try String(contentsOf: bundle.directory.appendingPathComponent("manifest.json"), encoding: .utf8)
        let json = try JSON(reading: Data(text.utf8))
        #expect(json["bundle_version"]?.string == bundle.summary.bundleVersion)
        #expect(bundle.directory.lastPathComponent.hasSuffix(bundle.summary.bundleVersion))
        #expect(json["store"]?["high_water_mark"]?.number == Double(bundle.events.values.map(\.updated).max()!))
        #expect(json["selection"]?["events"]?.number == Double(bundle.events.count))
        guard case .array(let files)? = json["files"], case .array(let zooms)? = json["zooms"] else { Issue.record("no files"); return }
        let onDisk = try ExportHelpers.files(bundle.directory).filter { $0.key != "manifest.json" }
        #expect(Set(files.compactMap { $0["path"]?.string }) == Set(onDisk.keys))
        for file in files {
            let data = try #require(onDisk[file["path"]!.string!])
            #expect(file["bytes"]?.number == Double(data.count))
            #expect(file["sha256"]?.string == SHA256.hex(data))
        }
        #expect(zooms.count == ProofBundle.maxZoom + 1)
        for (zoom, summary) in zip(zooms, bundle.summary.zooms) {
            #expect(zoom["tiles"]?.number == Double(summary.tiles) && zoom["events"]?.number == Double(summary.events))
        }
        // No wall-clock time: nothing in the manifest names the day it was written.
        #expect(!text.contains(String(ISOTime.format(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)).prefix(10))))
    }

    /// Issue 18.4: what an app downloads is what it needs, each file named in docs/bundle.md; what
    /// the next export needs (the event cache, the export state, the published files' stamps)
    /// stays in `--out/.export-cache`.
    @Test func theBundleHoldsOnlyTheAppsFilesEachDocumented() throws {
        let names = Set(try ExportHelpers.files(bundle.directory).keys.map { $0.hasPrefix("geojson/") ? "geojson/z{z}.geojson.gz" : $0 })
        #expect(names == ["geojson/z{z}.geojson.gz", "land.geojson", "manifest.json", "plate-boundaries.geojson", "preview.html",
                          "quakes.mbtiles", "quakes.pmtiles", "quakes.sqlite", "style.json", "timeline.json"])
        let page = try String(contentsOf: TestData.projectRoot.appendingPathComponent("docs/bundle.md"), encoding: .utf8)
        for name in names.union(["recent.geojson", "deltas/<N's bundle_version>.mbtiles", "deltas/<N's bundle_version>.sqlite"]) {
            #expect(page.contains("`\(name)`"), "docs/bundle.md names \(name)")
        }
        let cache = bundle.directory.deletingLastPathComponent().appendingPathComponent(".export-cache")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted() == ["events.bin", "export-state.bin", "published-files.txt"])
    }

    @Test func previewIsSelfContained() throws {
        let html = try String(contentsOf: bundle.directory.appendingPathComponent("preview.html"), encoding: .utf8)
        // Nothing is loaded from elsewhere; the only addresses are USGS's pages a tapped quake links to (its
        // event page, and those of its details' products), and the SVG namespace the beachball is made in.
        let namespace = "http://www.w3.org/2000/svg"
        for forbidden in ["http://", "<link", "<img", "src=", "import(", "fetch(", "XMLHttpRequest"] {
            #expect(!html.replacingOccurrences(of: namespace, with: "").contains(forbidden), "preview.html contains \(forbidden)")
        }
        #expect(html.components(separatedBy: "https://").dropFirst().allSatisfy { $0.hasPrefix("earthquake.usgs.gov/") })
        let start = try #require(html.range(of: "<script id=\"data\" type=\"application/json\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = try JSON(reading: Data(html[start.upperBound..<end.lowerBound].utf8))
        guard case .array(let zooms)? = data["zooms"] else { Issue.record("no zooms"); return }
        #expect(zooms.count == ProofBundle.maxZoom + 1)
        #expect(data["events"]?.number == Double(bundle.events.count))
        for zoom in zooms {
            guard case .array(let events)? = zoom["events"], let z = zoom["zoom"]?.number else { continue }
            #expect(events.count == bundle.eventFeatures(zoom: Int(z)).count)
        }
        #expect(html.contains("data-in-view") && html.contains("type=\"range\""))
    }
}

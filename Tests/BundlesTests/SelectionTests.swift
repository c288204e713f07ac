import Foundation
import GRDB
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// `--since/--until/--min-magnitude/--bbox/--event-type` select the same events everywhere.
@Suite struct SelectionTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let apply: @Sendable (inout Selection) -> Void
        let keep: @Sendable (QuakeEvent) -> Bool
    }

    static let cases: [Case] = [
        Case(description: "time window", apply: { $0.since = ISOTime.parse("1995-01-01"); $0.until = ISOTime.parse("2005-01-01") },
             keep: { $0.time! >= ISOTime.parse("1995-01-01")! && $0.time! < ISOTime.parse("2005-01-01")! }),
        Case(description: "min magnitude", apply: { $0.minMagnitude = 6.5 }, keep: { ($0.mag ?? -99) >= 6.5 }),
        Case(description: "bbox", apply: { $0.bbox = BoundingBox(west: 120, south: -10, east: 150, north: 45) },
             keep: { (120...150).contains($0.longitude!) && (-10...45).contains($0.latitude!) }),
        Case(description: "bbox across the antimeridian", apply: { $0.bbox = BoundingBox(west: 170, south: -60, east: -170, north: 60) },
             keep: { ($0.longitude! >= 170 || $0.longitude! <= -170) && (-60...60).contains($0.latitude!) }),
        Case(description: "event type", apply: { $0.eventTypes = ["quarry blast", "explosion"] },
             keep: { ["quarry blast", "explosion"].contains($0.eventType ?? "") }),
    ]

    @Test(arguments: cases)
    func selectionReachesTilesGeoJSONAndTheAppDatabase(_ selectionCase: Case) throws {
        let dir = TemporaryDirectory("selection")
        let store = try TestStore(workspace: dir.url, samples: ["query-m6-1973-2023.csv.gz", "feed-all_week-2020-06.geojson.gz"])
        let expected = Set(try store.events().values.filter(selectionCase.keep).map(\.id))
        #expect(expected.count > 20)
        let summary = try ExportHelpers.export(store, to: dir.path("bundles")) {
            selectionCase.apply(&$0.selection)
            $0.thinning.maxZoom = 5
        }
        #expect(summary.events == expected.count)
        let geojson = try JSON(reading: Gzip.decompress(Data(contentsOf: summary.directory.appendingPathComponent("geojson/z5.geojson.gz"))))
        guard case .array(let features)? = geojson["features"] else { Issue.record("no features"); return }
        // The map's quakes: the last zoom's, and those of the recent layer (on by default for a long catalog) beside them.
        let recentFile = summary.directory.appendingPathComponent("recent.geojson")
        let recent = FileManager.default.fileExists(atPath: recentFile.path) ? try JSON(reading: Data(contentsOf: recentFile)) : nil
        var recentFeatures: [JSON] = []
        if case .array(let list)? = recent?["features"] { recentFeatures = list }
        let ids = features.compactMap { $0["id"]?.string }, recentIDs = recentFeatures.compactMap { $0["id"]?.string }
        #expect(Set(ids).isDisjoint(with: recentIDs) && Set(ids + recentIDs) == expected && ids.count + recentIDs.count == expected.count)
        let queue = try DatabaseQueue(path: summary.directory.appendingPathComponent("quakes.sqlite").path)
        #expect(Set(try queue.read { try String.fetchAll($0, sql: "SELECT id FROM events") }) == expected)
    }
}

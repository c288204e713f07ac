import Foundation
import GRDB
import Testing
import TestSupport

/// The demo shows quakes' details (issue 47): the same stand-in and commands as Scripts/demo
/// give a bundle with the details of the recorded quakes its selection holds (nc72852151 and
/// nn00570710, significant, in query-m4.5-2010-2020-sample) among those of every significant quake.
@Suite struct DemoDetailsTests {
    /// The demo's catalogs and fetch, as Scripts/demo runs them.
    static let catalogs = ["query-m6-1973-2023.csv.gz", "query-m4.5-2010-2020-sample.geojson.gz",
                           "query-m4.5-2020-2024-antimeridian-window.geojson.gz"].map(TestData.usgs)
    static let selection = ["--start", "1973-01-01", "--end", "2024-12-31", "--min-magnitude", "4.5"]

    @Test func theDemoBundleHasTheRecordedQuakesDetails() async throws {
        let demo = try String(contentsOf: TestData.projectRoot.appendingPathComponent("Scripts/demo"), encoding: .utf8)
        #expect(demo.contains("--details data/detail") && demo.contains("--details-per-run 1000"), "Scripts/demo runs as this test does")
        let standIn = try StandInProcess(catalogs: Self.catalogs, cap: 2000, details: TestData.details)
        let directory = TemporaryDirectory("demo-details")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["fetch", "--workspace", root, "--service", standIn.baseURL.absoluteString, "--quiet",
                                        "--details-per-run", "1000", "--retry-delay", "0.01"] + Self.selection).checked()
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet"]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "8"]).checked()
        let bundle = directory.path("ws/bundles/current")
        let queue = try DatabaseQueue(path: bundle.appendingPathComponent("quakes.sqlite").path)
        let (ids, significant) = try await queue.read { db in
            (try String.fetchAll(db, sql: "SELECT id FROM details"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM events WHERE sig >= 600 OR alert IS NOT NULL") ?? 0)
        }
        try queue.close()
        #expect(Set(ids).isSuperset(of: ["nc72852151", "nn00570710"]))
        #expect(ids.count == significant && significant > 250, "every significant quake of the demo has its details: \(ids.count) of \(significant)")
        let nc = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("details/nc72852151.json"))) as? [String: Any]
        let stations = ((nc?["shakemap"] as? [String: Any])?["stations"] as? [String: Any])?["features"] as? [Any]
        #expect(stations?.count == 398, "the recorded station list")
    }
}

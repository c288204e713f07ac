import Foundation
import QuakeBundleKit
import Testing
import TestSupport

/// Issue 45.3: the app's queries over a bundle the real export made from real samples (quakes on
/// both sides of the antimeridian, a recent layer), each answer compared with plain SQL over
/// `events` in Python (Tests/Witness/bundle_queries.py): the biggest in a rectangle and time
/// window, across the antimeridian too; a quake's details by feature id; the recent layer; the
/// timeline of a rectangle.
@Suite struct BundleQueryTests {
    @Test func everyQueryAnswersAsPlainSQLDoes() async throws {
        let dir = TemporaryDirectory("client-queries")
        let workspace = dir.path("workspace").path
        for sample in ["query-m4.5-2020-2024-antimeridian-window.geojson.gz", "feed-all_week-2020-06.geojson.gz"] {
            _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace, "--from", TestData.usgs(sample).path, "--quiet"]).checked()
        }
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace, "--max-zoom", "4", "--recent-days", "3", "--quiet"]).checked()
        let bundle = try QuakeBundle(directory: dir.path("workspace/bundles/current"))
        let database = bundle.directory.appendingPathComponent("quakes.sqlite")

        let june2020 = Int64(1_590_969_600_000), july2020 = Int64(1_593_561_600_000)  // 2020-06-01, 2020-07-01
        let rects: [[Double]] = [
            [-180, -90, 180, 90],  // the world
            [170, -30, -170, 0],  // across the antimeridian: Fiji, Tonga
            [-125, 32, -114, 42],  // California
            [138.5, 35.5, 139.5, 36.5],  // a small one
            [10, 10, 11, 11],  // nothing there
            [179, -90, 180, 90],  // the edge itself
        ]
        var queries: [[String: Any]] = []
        for rect in rects {
            for (start, end) in [(nil, nil), (june2020, july2020), (june2020, nil), (nil, june2020)] as [(Int64?, Int64?)] {
                for limit in [0, 1, 100, 100_000] {
                    queries.append(["kind": "rect", "rect": rect, "start": start as Any, "end": end as Any, "limit": limit])
                }
            }
            queries.append(["kind": "timeline", "rect": rect, "start": NSNull(), "end": NSNull(), "bins": 50])
            queries.append(["kind": "timeline", "rect": rect, "start": june2020, "end": july2020, "bins": 7])
            queries.append(["kind": "timeline", "rect": rect, "start": june2020, "end": june2020 + 1, "bins": 1])
        }
        let world = try bundle.quakes(in: .world, limit: 100_000)
        #expect(world.count > 4_000)
        for quake in world.prefix(5) + world.suffix(5) { queries.append(["kind": "details", "id": quake.featureID]) }
        queries.append(["kind": "details", "id": Int64(12_345)])
        queries.append(["kind": "recent"])

        try JSONSerialization.data(withJSONObject: queries.map { $0.mapValues { $0 is NSNull ? NSNull() : $0 } }).write(to: dir.path("queries.json"))
        let answers = try JSONSerialization.jsonObject(with: await WitnessScript.run("bundle_queries.py", [database.path, dir.path("queries.json").path]),
                                                       options: .fragmentsAllowed) as! [Any]
        #expect(answers.count == queries.count)
        var checked: [String: Int] = [:]
        for (query, answer) in zip(queries, answers) {
            let kind = query["kind"] as! String
            checked[kind, default: 0] += 1
            switch kind {
            case "rect":
                let r = query["rect"] as! [Double]
                let window = TimeWindow(start: query["start"] as? Int64, end: query["end"] as? Int64)
                let ours = try bundle.quakes(in: MapRect(west: r[0], south: r[1], east: r[2], north: r[3]), during: window, limit: query["limit"] as! Int)
                #expect(ours.map(\.featureID) == (answer as! [NSNumber]).map(\.int64Value), "\(query)")
            case "timeline":
                let r = query["rect"] as! [Double]
                let window = TimeWindow(start: query["start"] as? Int64, end: query["end"] as? Int64)
                let ours = try bundle.timeline(in: MapRect(west: r[0], south: r[1], east: r[2], north: r[3]), during: window, bins: query["bins"] as! Int)
                let theirs = (answer as! [[Any]]).map { bin in
                    TimelineBin(start: (bin[0] as! NSNumber).int64Value, end: (bin[1] as! NSNumber).int64Value, count: (bin[2] as! NSNumber).intValue,
                                maxMagnitude: (bin[3] as? NSNumber)?.doubleValue)
                }
                #expect(ours == theirs, "\(query)")
            case "details":
                let ours = try bundle.details(featureID: query["id"] as! Int64)
                guard let answer = answer as? [String: Any], let row = answer["fields"] as? [String: Any] else {
                    #expect(ours == nil, "\(query)")
                    continue
                }
                #expect(ours?.json == answer["json"] as? String, "\(query)")
                let fields = try #require(ours?.fields, "\(query)")
                #expect(Set(fields.keys) == Set(row.keys), "\(query)")
                for (name, value) in row {
                    switch fields[name] {
                    case .integer(let n): #expect(n == (value as? NSNumber)?.int64Value, "\(name)")
                    case .real(let x): #expect(x == (value as? NSNumber)?.doubleValue, "\(name)")
                    case .text(let text): #expect(text == value as? String, "\(name)")
                    case nil: Issue.record("\(name) missing")
                    }
                }
                #expect(ours?.quake.id == row["id"] as? String && ours?.quake.featureID == query["id"] as? Int64)
            default:
                let ours = try bundle.recent()
                #expect(!ours.isEmpty && ours.map(\.featureID) == (answer as! [NSNumber]).map(\.int64Value), "recent: \(ours.count)")
            }
        }
        #expect(checked == ["rect": rects.count * 16, "timeline": rects.count * 3, "details": 11, "recent": 1])
        let antimeridian = try bundle.quakes(in: MapRect(west: 170, south: -30, east: -170, north: 0), limit: 100_000)
        #expect(antimeridian.contains { $0.longitude > 170 } && antimeridian.contains { $0.longitude < -170 }, "quakes on both sides")
    }
}

import Foundation
import GRDB
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakeOperations
import QuakeStore
import Testing
import TestSupport

/// The details of the recorded quakes (issue 47), fetched from the stand-in as the service
/// serves them, indexed into the store, and held against what an independent reader
/// (Tests/Witness/detail_witness.py: json, ElementTree, html.parser) reads in the recorded files.
@Suite struct DetailsTests {
    static func witness() async throws -> [String: [String: Any]] {
        let data = try await WitnessScript.run("detail_witness.py", [TestData.details.path])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    }

    static func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue } }
    static func words(_ text: Any?) -> String? { (text as? String).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") } }
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func eachRecordedQuakesSummarySaysWhatTheRecordedFilesSay() async throws {
        let world = try DetailWorld()
        let (fetched, indexed) = try await world.bake()
        #expect(fetched.details.fetched == DetailWorld.ids.count)
        #expect(indexed.details.stored == DetailWorld.ids.count)
        let stored = try world.stored()
        let expected = try await Self.witness()
        #expect(Set(stored.keys) == Set(DetailWorld.ids) && Set(expected.keys) == Set(DetailWorld.ids))
        for id in DetailWorld.ids {
            let summary = try #require(stored[id]?.summary, "\(id)"), want = try #require(expected[id])
            #expect(summary["id"] as? String == id)
            #expect(Self.number(summary["updated"]) == Self.number(want["updated"]), "\(id) updated")
            try Self.comparePager(id, summary["pager"], want["pager"], leftOut: DetailWorld.leftOut(summary))
            try Self.compareShakeMap(id, summary["shakemap"], want["shakemap"])
            let dyfi = summary["dyfi"] as? [String: Any], wantDYFI = want["dyfi"] as? [String: Any]
            #expect((dyfi == nil) == (wantDYFI == nil), "\(id) dyfi")
            #expect(Self.number(dyfi?["responses"]) == Self.number(wantDYFI?["responses"]) && Self.number(dyfi?["max_mmi"]) == Self.number(wantDYFI?["max_mmi"]), "\(id) dyfi")
            for mechanism in ["moment_tensor", "focal_mechanism"] {
                try Self.compareMechanism("\(id) \(mechanism)", summary[mechanism], want[mechanism])
            }
            #expect(Self.words(summary["tectonic_summary"]) == Self.words(want["tectonic_summary"]), "\(id) tectonic summary")
            #expect(Self.words(summary["impact"]) == Self.words(want["impact"]), "\(id) impact")
            let links = summary["links"] as? [String: String] ?? [:]
            #expect(links["event"] == "https://earthquake.usgs.gov/earthquakes/eventpage/\(id)")
        }
        // Texts USGS writes in HTML are plain text in the summary.
        let tectonic = try #require(stored["us2000h8ty"]?.summary["tectonic_summary"] as? String)
        #expect(!tectonic.contains("<") && tectonic.hasPrefix("The September 5, 2018, M 6.6 earthquake east of Tomakomai"))
    }

    static func comparePager(_ id: String, _ value: Any?, _ expected: Any?, leftOut: [String]) throws {
        let pager = value as? [String: Any], want = expected as? [String: Any]
        #expect((pager == nil) == (want == nil), "\(id) pager")
        guard let pager, let want else { return }
        #expect(pager["alert"] as? String == want["alert"] as? String, "\(id) PAGER alert")
        #expect(pager["fatality_alert"] as? String == want["fatality_alert"] as? String, "\(id) fatality alert")
        #expect(pager["economic_alert"] as? String == want["economic_alert"] as? String, "\(id) economic alert")
        let exposure = (pager["exposure"] as? [[String: Any]] ?? []).map { [Self.number($0["mmi"]) ?? -1, Self.number($0["population"]) ?? -1] }
        let wanted = (want["exposure"] as? [[Any]] ?? []).map(Self.numbers)
        #expect(exposure == wanted, "\(id) exposure")
        if wanted.isEmpty {
            // Not recorded: the service answered 404, and the summary says so.
            #expect(leftOut.contains { $0.hasPrefix("pager exposure") && $0.contains("404") }, "\(id): \(leftOut)")
        }
    }

    static func compareShakeMap(_ id: String, _ value: Any?, _ expected: Any?) throws {
        let shakeMap = value as? [String: Any], want = expected as? [String: Any]
        #expect((shakeMap == nil) == (want == nil), "\(id) shakemap")
        guard let shakeMap, let want else { return }
        #expect(Self.number(shakeMap["max_mmi"]) == Self.number(want["max_mmi"]), "\(id) max MMI")
        for measure in ["max_pga", "max_pgv"] {
            let got = shakeMap[measure] as? [String: Any], wanted = want[measure] as? [Any]
            #expect(Self.number(got?["value"]) == Self.number(wanted?.first) && got?["units"] as? String == wanted?.last as? String, "\(id) \(measure)")
        }
        let stations = (shakeMap["stations"] as? [String: Any])?["features"] as? [[String: Any]] ?? []
        #expect(stations.count == Self.number(want["stations"]).map(Int.init), "\(id) stations")
        let intensities = stations.compactMap { Self.number(($0["properties"] as? [String: Any])?["intensity"]) }.sorted()
        #expect(intensities == Self.numbers(want["intensities"]), "\(id) station intensities")
    }

    static func compareMechanism(_ what: String, _ value: Any?, _ expected: Any?) throws {
        let mechanism = value as? [String: Any], want = expected as? [String: Any]
        #expect((mechanism == nil) == (want == nil), "\(what)")
        guard let mechanism, let want else { return }
        #expect(mechanism["magnitude_type"] as? String == want["magnitude_type"] as? String, "\(what) type")
        #expect(Self.number(mechanism["magnitude"]) == Self.number(want["magnitude"]), "\(what) magnitude")
        #expect(Self.number(mechanism["scalar_moment"]) == Self.number(want["scalar_moment"]), "\(what) scalar moment")
        let planes = (mechanism["nodal_planes"] as? [[String: Any]] ?? []).map { plane in ["strike", "dip", "rake"].map { key in Self.number(plane[key]) ?? .nan } }
        #expect(planes == (want["nodal_planes"] as? [[Any]] ?? []).map(Self.numbers), "\(what) nodal planes")
        if let tensor = want["tensor"] as? [Any] {
            let got = mechanism["tensor"] as? [String: Any] ?? [:]
            #expect(["mrr", "mtt", "mpp", "mrt", "mrp", "mtp"].map { Self.number(got[$0]) ?? .nan } == Self.numbers(tensor), "\(what) tensor")
        }
        if let axis = want["t_axis"] as? [Any] {
            let got = mechanism["t_axis"] as? [String: Any]
            #expect([Self.number(got?["azimuth"]), Self.number(got?["plunge"])].compactMap { $0 } == Self.numbers(axis), "\(what) T axis")
        }
    }

    /// A content file damaged, huge, off the service's host or not there: that part is left out
    /// with the reason, the rest of the detail is kept, and the run goes on.
    @Test func aDamagedHugeOffHostOrMissingFileLeavesOnlyItsPartOut() async throws {
        // Damaged: every product file cut in half.
        var world = try DetailWorld(faults: ["truncate,on=product,every=1"])
        _ = try await world.bake()
        var h8ty = try #require(try world.stored()["us2000h8ty"]?.summary)
        var pager = try #require(h8ty["pager"] as? [String: Any])
        #expect(pager["alert"] as? String == "orange", "the product's own properties are kept")
        #expect(DetailWorld.leftOut(h8ty).contains { $0.hasPrefix("pager exposure: json/exposures.json is not JSON") }, "\(DetailWorld.leftOut(h8ty))")
        #expect((h8ty["moment_tensor"] as? [String: Any])?["scalar_moment"] != nil)

        // Huge: product files of 3 MB, over a 1 MB limit.
        world = try DetailWorld(faults: ["big=3,on=product,every=1"])
        let (fetched, _) = try await world.bake(world.options(maxContentBytes: 1 << 20))
        #expect(fetched.details.fetched == DetailWorld.ids.count && fetched.details.contentFiles == 0 && fetched.details.contentLeftOut > 0)
        h8ty = try #require(try world.stored()["us2000h8ty"]?.summary)
        #expect(DetailWorld.leftOut(h8ty).contains { $0.hasPrefix("pager exposure: json/exposures.json: ") && $0.contains("body limit") }, "\(DetailWorld.leftOut(h8ty))")

        // Off the service's host: never asked for; a file of the same product on the host is still fetched.
        world = try DetailWorld()
        let recorded = try Gzip.decompress(try Data(contentsOf: TestData.details.appendingPathComponent("events/us2000h8ty.geojson.gz")))
        let moved = String(decoding: recorded, as: UTF8.self).replacingOccurrences(
            of: "https://earthquake.usgs.gov/product/losspager/us2000h8ty/us/1541539345392/json/exposures.json",
            with: "http://192.0.2.7:8080/product/losspager/us2000h8ty/us/1541539345392/json/exposures.json")
        _ = try await world.standIn.admin("POST", "details", body: Data(moved.utf8))
        _ = try await world.bake()
        h8ty = try #require(try world.stored()["us2000h8ty"]?.summary)
        pager = try #require(h8ty["pager"] as? [String: Any])
        #expect(pager["fatality_alert"] as? String == "yellow" && (pager["exposure"] as? [Any])?.isEmpty == true)
        #expect(DetailWorld.leftOut(h8ty).contains { $0.contains("json/exposures.json: not on the service's host (192.0.2.7)") }, "\(DetailWorld.leftOut(h8ty))")
        #expect(try await world.standIn.requests().allSatisfy { !$0.target.contains("exposures.json") || !$0.target.contains("us2000h8ty") })

        // Not there (the service answers 404): left out with the status.
        let nc = try #require(try world.stored()["nc72852151"]?.summary)
        #expect(DetailWorld.leftOut(nc).contains { $0 == "nearby cities: nearby-cities.json: status 404 (Not Found)" }, "\(DetailWorld.leftOut(nc))")
    }

    /// A quake's details follow its row: kept under its new id when its preferred id changes,
    /// gone when it is deleted or stops being significant, and a rebuild gives the same rows.
    @Test func detailsFollowTheirQuakeThroughRenamesDeletionsAndSignificance() async throws {
        let world = try DetailWorld()
        _ = try await world.bake()
        #expect(try world.stored().count == DetailWorld.ids.count)

        _ = try await world.standIn.changePreferredId("us10008e3k", to: "us7000qbtest")
        _ = try await world.standIn.delete("nn00570710")
        _ = try await world.standIn.update("us2000h8ty", ["sig": 420, "alert": nil])
        var options = world.options()
        options.overlap = 0
        let (fetched, indexed) = try await world.bake(options)
        #expect(fetched.details.fetched == 1, "only the renamed quake's new version asks for details")
        let stored = try world.stored()
        #expect(stored["us7000qbtest"] != nil && stored["us10008e3k"] == nil, "the details moved with the row")
        #expect((stored["us7000qbtest"]?.summary["moment_tensor"] as? [String: Any])?["magnitude_type"] as? String == "Mww")
        #expect(stored["nn00570710"] == nil, "a deleted quake has no details")
        #expect(stored["us2000h8ty"] == nil, "a quake no longer significant has no details")
        #expect(stored.count == DetailWorld.ids.count - 2)
        #expect(indexed.details.removed == 3 && indexed.details.stored == 1)
        let archive = try ArchiveSources.details(in: world.workspace)
        #expect(archive.filter(\.isDrop).map(\.eventID).sorted() == ["nn00570710", "us2000h8ty"])

        // The same store, rebuilt from the archive.
        let before = stored.mapValues { $0.row["summary"] as String }
        let rebuilt = try Indexer.rebuild(try ArchiveSources.all(in: world.workspace), details: try ArchiveSources.details(in: world.workspace),
                                          store: world.workspace.storePath, logger: DetailWorld.log.logger)
        #expect(rebuilt.details.stored == before.count)
        #expect(try world.stored().mapValues { $0.row["summary"] as String } == before)
    }

    @Test func theBundleCarriesEachQuakesDetails() async throws {
        let world = try DetailWorld()
        _ = try await world.bake()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", world.directory.url.path, "--quiet", "--max-zoom", "4"]).checked()
        let bundle = world.directory.path("bundles/current")
        let stored = try world.stored()
        let queue = try DatabaseQueue(path: bundle.appendingPathComponent("quakes.sqlite").path)
        let (schema, rows) = try await queue.read { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'details'"),
             try Row.fetchAll(db, sql: "SELECT id, json FROM details ORDER BY id").map { ($0[0] as String, $0[1] as String) })
        }
        #expect(schema == "CREATE TABLE details (id TEXT PRIMARY KEY, json TEXT)")
        try queue.close()
        #expect(rows.map(\.0) == stored.keys.sorted())
        for (id, json) in rows {
            let file = try Data(contentsOf: bundle.appendingPathComponent("details/\(id).json"))
            #expect(String(decoding: file, as: UTF8.self) == json + "\n", "\(id): the file and the row are one summary")
            let fromBundle = try JSONSerialization.jsonObject(with: file) as? NSDictionary
            #expect(fromBundle == stored[id]?.summary as NSDictionary?, "\(id): as the store holds it")
        }
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect((manifest?["selection"] as? [String: Any])?["details"] as? Int == stored.count)
        // Nothing changed: no new version.
        let again = try await QuakeBakeCLI.run(["export", "--workspace", world.directory.url.path, "--max-zoom", "4"]).checked()
        #expect(again.standardError.contains("nothing changed since bundle"), "\(again.standardError)")
    }
}

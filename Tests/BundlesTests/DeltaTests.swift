import Foundation
import GRDB
import Logging
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Issue 18: each new bundle version carries deltas from the versions kept before it, and
/// an app applying them with Python's sqlite3 alone (docs/apply-delta.py, the SQL of docs/deltas.md)
/// gets the new version's tiles and rows exactly, directly or along a chain.
@Suite struct DeltaTests {
    struct Step: Decodable {
        let delta_tiles: Int, deleted_tiles: Int, delta_rows: Int, deleted_rows: Int, delta_details: Int, deleted_details: Int
        let tiles: Int, tiles_count: Int, metadata: Int, rows: Int, rows_count: Int, rtree: Int, info: Int, details: Int
        var mismatches: Int { tiles + metadata + rows + rtree + info + details }
    }

    struct Report: Decodable {
        let direct: Step, first: Step?, chain: Step?
        let chain_vs_direct: Comparison?
    }

    struct Comparison: Decodable {
        let tiles: Int, rows: Int, rtree: Int
    }

    @Test func deltasFromEachKeptVersionBringAnOldCopyToTheNewVersionExactly() async throws {
        let dir = TemporaryDirectory("deltas")
        let sample = "feed-all_week-2020-06.geojson.gz"
        let store = try TestStore(workspace: dir.url, samples: [sample])
        let out = dir.path("bundles")
        // Quakes' details (issue 47) go along: changed, removed, new, gone with their quake.
        let all = try store.events().values.sorted { $0.id < $1.id }
        func detail(_ e: QuakeEvent, _ version: Int) -> String { #"{"id":"\#(e.id)","version":\#(version)}"# }
        try store.setDetails([all[0].id: detail(all[0], 1), all[1].id: detail(all[1], 1), all[2].id: detail(all[2], 1), all[300].id: detail(all[300], 1)])
        let v1 = try ExportHelpers.export(store, to: out)
        #expect(!FileManager.default.fileExists(atPath: v1.directory.appendingPathComponent("deltas").path), "nothing to be a delta from")

        // A cron run's worth: magnitudes revised, one quake moved, two deleted, one new.
        func revised(_ e: QuakeEvent, _ change: (inout QuakeEvent) -> Void) -> QuakeEvent {
            var e = e
            e.updated += 1_000
            change(&e)
            return e
        }
        try store.upsert(all.prefix(40).map { revised($0) { $0.mag = ($0.mag ?? 1) + 0.1 } }
                         + [revised(all[100]) { $0.latitude! += 0.3 }]
                         + [revised(all[200]) { ($0.id, $0.ids) = ("qbdelta1", ["qbdelta1"]) }])
        try store.delete([all[300].id, all[301].id], updated: all.map(\.updated).max()! + 10)
        try store.setDetails([all[1].id: detail(all[1], 2), all[2].id: nil, all[5].id: detail(all[5], 1)])
        let v2 = try ExportHelpers.export(store, to: out)
        // And another: more revisions, one more deletion.
        try store.upsert(all[50..<70].map { revised($0) { $0.mag = ($0.mag ?? 1) - 0.2 } })
        try store.delete([all[400].id], updated: all.map(\.updated).max()! + 20)
        try store.setDetails([all[0].id: detail(all[0], 3)])
        let v3 = try ExportHelpers.export(store, to: out)

        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: v3.directory.appendingPathComponent("manifest.json"))) as? [String: Any])
        let deltas = try #require(manifest["deltas"] as? [[String: Any]])
        #expect(deltas.map { $0["base"] as? String } == [v2.bundleVersion, v1.bundleVersion], "newest base first")
        for delta in deltas {
            let files = try #require(delta["files"] as? [[String: Any]])
            #expect(files.count == 2)
            for file in files {
                let path = try #require(file["path"] as? String)
                let url = v3.directory.appendingPathComponent(path)
                #expect(try Data(contentsOf: url).count == file["bytes"] as? Int)
                #expect(try SHA256.hex(fileAt: url) == file["sha256"] as? String)
            }
            let changed = try #require(delta["changed_files"] as? [String])
            #expect(changed.contains("timeline.json") && !changed.contains("quakes.mbtiles") && !changed.contains("quakes.sqlite"))
            #expect(!changed.contains("land.geojson") && !changed.contains("plate-boundaries.geojson") && !changed.contains("style.json"),
                    "the basemap and the style are as in every version: \(changed)")
        }

        let report = try JSONDecoder().decode(Report.self, from: await WitnessScript.run(
            "delta_witness.py", [dir.path("witness").path, v1.directory.path, v2.directory.path, v3.directory.path]))
        for step in [report.direct, report.first, report.chain].compactMap({ $0 }) {
            #expect(step.mismatches == 0, "\(step)")
            #expect(step.delta_rows > 0 && step.deleted_rows > 0)
            #expect(step.delta_tiles > 0 && step.delta_tiles < step.tiles_count / 2, "a delta carries only what changed: \(step)")
        }
        #expect(report.direct.deleted_rows == 3 && report.first?.deleted_rows == 2 && report.chain?.deleted_rows == 1)
        #expect((report.direct.delta_details, report.direct.deleted_details) == (3, 2), "\(report.direct)")
        #expect((report.first?.delta_details, report.first?.deleted_details) == (2, 2) && (report.chain?.delta_details, report.chain?.deleted_details) == (1, 0))
        let versus = try #require(report.chain_vs_direct)
        #expect(versus.tiles == 0 && versus.rows == 0 && versus.rtree == 0, "the chain v1 → v2 → v3 equals the direct v1 → v3")
    }

    /// The next export makes its delta from an older version through the previous version's own
    /// delta from it only when that file is the one the previous manifest lists: a damaged one
    /// (here, emptied of its tiles and rows) is passed over, and the new delta is still exact.
    @Test func aDamagedEarlierDeltaIsNotTrusted() async throws {
        let dir = TemporaryDirectory("deltas-damaged")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let out = dir.path("bundles")
        let v1 = try ExportHelpers.export(store, to: out)
        let all = try store.events().values.sorted { $0.id < $1.id }
        func revise(_ events: ArraySlice<QuakeEvent>, by change: Double) throws {
            try store.upsert(events.map { e in
                var e = e
                e.updated += 1_000
                e.mag = (e.mag ?? 1) + change
                return e
            })
        }
        try revise(all.prefix(30), by: 0.1)
        let v2 = try ExportHelpers.export(store, to: out)
        let earlier = v2.directory.appendingPathComponent("deltas/\(v1.bundleVersion)")
        try sqlite(earlier.appendingPathExtension("mbtiles"), "DELETE FROM tiles; DELETE FROM deleted_tiles")
        try sqlite(earlier.appendingPathExtension("sqlite"), "DELETE FROM events; DELETE FROM events_rtree; DELETE FROM deleted_events")
        try revise(all[100..<110], by: -0.2)
        let v3 = try ExportHelpers.export(store, to: out)

        let report = try JSONDecoder().decode(Report.self, from: await WitnessScript.run(
            "delta_witness.py", [dir.path("witness").path, v1.directory.path, v3.directory.path]))
        #expect(report.direct.mismatches == 0, "\(report.direct)")
        #expect(report.direct.delta_rows >= 40, "the rows v2 changed are in v3's delta from v1: \(report.direct)")
    }

    /// An older version someone damaged never stops the new one: one whose app database is gone
    /// and one whose tiles were overwritten (same size, other bytes) get no delta, with a warning
    /// that says why, and the new version is published with the delta from the sound one, exact.
    @Test func aDamagedOlderVersionGetsNoDeltaAndStopsNothing() async throws {
        let dir = TemporaryDirectory("deltas-damaged-base")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let out = dir.path("bundles")
        let all = try store.events().values.sorted { $0.id < $1.id }
        func revised(_ step: Int) throws {
            try store.upsert(all[(step * 10)..<(step * 10 + 10)].map { e in
                var e = e
                e.updated += 1_000
                e.mag = (e.mag ?? 1) + 0.1
                return e
            })
        }
        func export(_ logger: Logger = ExportHelpers.silentLogger) throws -> ExportSummary {
            try ExportHelpers.export(store, to: out, logger: logger) { $0.keep = 4 }
        }
        let v1 = try export()
        try revised(1)
        let v2 = try export()
        try revised(2)
        let v3 = try export()
        try FileManager.default.removeItem(at: v1.directory.appendingPathComponent("quakes.sqlite"))
        let tiles = v2.directory.appendingPathComponent("quakes.mbtiles")
        try Data(repeating: 0x51, count: try Data(contentsOf: tiles).count).write(to: tiles)
        try revised(3)
        let log = RecordedLog()
        let v4 = try export(log.logger)

        #expect(v4.changed && v4.directory.lastPathComponent.hasPrefix("v000004-"))
        let deltas = try FileManager.default.contentsOfDirectory(atPath: v4.directory.appendingPathComponent("deltas").path).sorted()
        #expect(deltas == ["\(v3.bundleVersion).mbtiles", "\(v3.bundleVersion).sqlite"], "\(deltas)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: v4.directory.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect((manifest["deltas"] as? [[String: Any]])?.map { $0["base"] as? String } == [v3.bundleVersion])
        #expect(log.messages.contains { $0.contains("\(v1.directory.lastPathComponent): its quakes.sqlite is missing") }, "\(log.messages)")
        #expect(log.messages.contains { $0.contains("no delta from version \(v2.bundleVersion): \(v2.bundleVersion).mbtiles:") }, "\(log.messages)")
        let report = try JSONDecoder().decode(Report.self, from: await WitnessScript.run(
            "delta_witness.py", [dir.path("witness").path, v3.directory.path, v4.directory.path]))
        #expect(report.direct.mismatches == 0, "\(report.direct)")
    }

    /// The reference applier changes nothing unless the delta is this copy's: a delta file cut
    /// short or damaged, a copy of another version, a second application, a version with no delta
    /// from the copy's are refused with a message naming the file or the versions, the copy's
    /// files untouched; the right delta then applies, and the copy's quakes.sqlite names its new version.
    @Test func theReferenceApplierRefusesADeltaThatIsNotTheCopys() async throws {
        let dir = TemporaryDirectory("deltas-refused")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let out = dir.path("bundles")
        func revised(by change: Double) throws {
            try store.upsert(try store.events().values.sorted { $0.id < $1.id }.prefix(20).map { e in
                var e = e
                e.updated += 1_000
                e.mag = (e.mag ?? 1) + change
                return e
            })
        }
        let fm = FileManager.default
        func copy(_ bundle: URL, to name: String, files: [String] = ["quakes.mbtiles", "quakes.sqlite", "manifest.json"]) throws -> URL {
            let target = dir.path(name)
            for file in files {
                try fm.createDirectory(at: target.appendingPathComponent(file).deletingLastPathComponent(), withIntermediateDirectories: true)
                try fm.copyItem(at: bundle.appendingPathComponent(file), to: target.appendingPathComponent(file))
            }
            return target
        }
        func digests(_ copy: URL) throws -> [String] {
            try ["quakes.mbtiles", "quakes.sqlite"].map { try SHA256.hex(fileAt: copy.appendingPathComponent($0)) }
        }
        func applier(_ copy: URL, _ new: URL) async throws -> ChildProcess.Outcome {
            try await ChildProcess.run("python3", [TestData.projectRoot.appendingPathComponent("docs/apply-delta.py").path, copy.path, new.path])
        }

        let v1 = try ExportHelpers.export(store, to: out)
        let app = try copy(v1.directory, to: "app")  // what the app shipped
        let before = try digests(app)
        try revised(by: 0.1)
        let v2 = try ExportHelpers.export(store, to: out) { $0.keep = 2 }
        try revised(by: 0.2)
        let v3 = try ExportHelpers.export(store, to: out) { $0.keep = 2 }  // v1 is pruned: v3 has a delta from v2 only

        // v2's delta from v1, its tiles file cut short as by a broken download.
        let deltaFiles = ["manifest.json", "deltas/\(v1.bundleVersion).mbtiles", "deltas/\(v1.bundleVersion).sqlite"]
        let cut = try copy(v2.directory, to: "cut", files: deltaFiles)
        let tilesDelta = cut.appendingPathComponent("deltas/\(v1.bundleVersion).mbtiles")
        try Data(contentsOf: tilesDelta).prefix(4096).write(to: tilesDelta)
        let truncated = try await applier(app, cut)
        #expect(truncated.status == 1 && truncated.standardError.contains("\(v1.bundleVersion).mbtiles: 4096 bytes, the manifest says"), "\(truncated)")
        // The same size, other bytes.
        let damaged = try copy(v2.directory, to: "damaged", files: deltaFiles)
        let rowsDelta = damaged.appendingPathComponent("deltas/\(v1.bundleVersion).sqlite")
        var bytes = try Data(contentsOf: rowsDelta)
        bytes[bytes.count - 1] ^= 0xff
        try bytes.write(to: rowsDelta)
        let wrongBytes = try await applier(app, damaged)
        #expect(wrongBytes.status == 1 && wrongBytes.standardError.contains("sha256"), "\(wrongBytes)")
        // v3 has no delta from v1.
        let noDelta = try await applier(app, v3.directory)
        #expect(noDelta.status == 1 && noDelta.standardError.contains("version \(v3.bundleVersion) has no delta from version \(v1.bundleVersion) (it has deltas from: \(v2.bundleVersion))"),
                "\(noDelta)")
        #expect(try digests(app) == before, "nothing of the copy changed while refusing")

        let applied = try await applier(app, v2.directory)
        #expect(applied.status == 0 && applied.standardOutput.contains("version \(v1.bundleVersion) → \(v2.bundleVersion)"), "\(applied)")
        let held = try await DatabaseQueue(path: app.appendingPathComponent("quakes.sqlite").path).read {
            try String.fetchOne($0, sql: "SELECT value FROM info WHERE name = 'bundle_version'")
        }
        #expect(held == v2.bundleVersion, "the copy's quakes.sqlite names the version it now holds (its manifest is still v1's)")
        let again = try await applier(app, v2.directory)
        #expect(again.status == 1 && again.standardError.contains("already holds version \(v2.bundleVersion)"), "\(again)")
        // Now v3's delta from v2 is the copy's, found by the version its quakes.sqlite names.
        let next = try await applier(app, v3.directory)
        #expect(next.status == 0, "\(next)")
        #expect(try digests(app)[0] != before[0])
    }

    private func sqlite(_ file: URL, _ sql: String) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    @Test func keepingOneVersionMakesNoDeltas() throws {
        let dir = TemporaryDirectory("deltas-keep1")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        _ = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.keep = 1 }
        var event = try #require(try store.events().values.min { $0.id < $1.id })
        event.updated += 1
        event.mag = (event.mag ?? 1) + 1
        try store.upsert([event])
        let second = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.keep = 1 }
        #expect(!FileManager.default.fileExists(atPath: second.directory.appendingPathComponent("deltas").path))
    }

    @Test func noDeltasMakesNoneAndKeepsTheVersions() throws {
        let dir = TemporaryDirectory("deltas-off")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let first = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.deltas = false }
        var event = try #require(try store.events().values.min { $0.id < $1.id })
        event.updated += 1
        event.mag = (event.mag ?? 1) + 1
        try store.upsert([event])
        let second = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.deltas = false }
        #expect(second.changed && second.bundleVersion != first.bundleVersion)
        #expect(!FileManager.default.fileExists(atPath: second.directory.appendingPathComponent("deltas").path))
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: second.directory.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect((manifest["deltas"] as? [Any])?.isEmpty ?? true, "\(manifest["deltas"] ?? "none")")
        #expect(FileManager.default.fileExists(atPath: first.directory.path), "the older version is still kept")
    }
}

/// A quake's details changing alone (its row as it was) makes a new version whose app database,
/// patched, holds the new summary, and whose delta carries it (issue 47).
@Suite struct DetailsOnlyChangeTests {
    @Test func aChangedDetailAloneMakesANewVersionAndADelta() async throws {
        let dir = TemporaryDirectory("deltas-details")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2020-06.geojson.gz"])
        let out = dir.path("bundles")
        let id = try #require(try store.events().keys.min())
        try store.setDetails([id: #"{"id":"\#(id)","pager":{"alert":"green"}}"#])
        let v1 = try ExportHelpers.export(store, to: out)
        try store.setDetails([id: #"{"id":"\#(id)","pager":{"alert":"yellow"}}"#])
        let log = RecordedLog()
        let v2 = try ExportHelpers.export(store, to: out, logger: log.logger)
        #expect(v2.changed && v2.bundleVersion != v1.bundleVersion)
        #expect(log.messages.contains { $0.contains("patched the previous bundle's file") && $0.contains("kept it (still compact)") }, "\(log.messages)")
        let file = try String(contentsOf: v2.directory.appendingPathComponent("details/\(id).json"), encoding: .utf8)
        #expect(file == #"{"id":"\#(id)","pager":{"alert":"yellow"}}"# + "\n")
        let report = try JSONDecoder().decode(DeltaTests.Report.self, from: await WitnessScript.run(
            "delta_witness.py", [dir.path("witness").path, v1.directory.path, v2.directory.path]))
        #expect(report.direct.mismatches == 0 && report.direct.delta_details == 1 && report.direct.delta_rows == 0, "\(report.direct)")
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: v2.directory.appendingPathComponent("manifest.json"))) as? [String: Any]
        let changed = ((manifest?["deltas"] as? [[String: Any]])?.first?["changed_files"] as? [String]) ?? []
        #expect(changed.contains("details/\(id).json"), "\(changed)")
    }
}

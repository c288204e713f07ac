import Foundation
import QuakeBundles
import QuakeCommon
import Testing
import TestSupport

/// Files that are not ours are never touched (issue 13): pruning recognises our versions by
/// their manifest, not by a name pattern; planted symlinks for the event cache and the lock
/// are refused, and their targets stay as they were.
@Suite struct ForeignFilesTests {
    @Test func pruningKeepsWhatTheUserPutBesideTheBundles() throws {
        let dir = TemporaryDirectory("foreign")
        let out = dir.path("bundles")
        let store = try TestStore(workspace: dir.url, samples: [PublishTests.sample])
        try FileManager.default.createDirectory(at: out.appendingPathComponent("v2-important-project"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("v2-important-project/thesis.tex"))
        try Data("notes".utf8).write(to: out.appendingPathComponent("v1-notes.txt"))
        // Named like a version of ours, but holding no manifest of ours.
        try FileManager.default.createDirectory(at: out.appendingPathComponent("v000001-look-alike"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: out.appendingPathComponent("v000001-look-alike/manifest.json"))

        var made: [String] = []
        for perCell in 1...3 {
            let summary = try ExportHelpers.export(store, to: out) { $0.keep = 1; $0.thinning.maxZoom = 3; $0.thinning.perCell = perCell }
            made.append(summary.directory.lastPathComponent)
        }
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(names.isSuperset(of: ["v2-important-project", "v1-notes.txt", "v000001-look-alike"]), "\(names)")
        #expect(try String(contentsOf: out.appendingPathComponent("v2-important-project/thesis.tex"), encoding: .utf8) == "mine")
        #expect(names.contains(made[2]) && !names.contains(made[0]) && !names.contains(made[1]), "ours pruned: \(names)")
    }

    @Test func aSymlinkedEventCacheIsRefusedAndItsTargetKept() throws {
        let dir = TemporaryDirectory("foreign")
        let out = dir.path("bundles")
        let victim = dir.path("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: victim.appendingPathComponent("events.bin"))
        try Data("precious".utf8).write(to: victim.appendingPathComponent("report.qbtmp"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(".export-cache"), withDestinationURL: victim)
        let store = try TestStore(workspace: dir.url, samples: [PublishTests.sample])
        #expect(throws: QuakeBakeError.self) { try ExportHelpers.export(store, to: out) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).sorted() == ["events.bin", "report.qbtmp"])
        #expect(try Data(contentsOf: victim.appendingPathComponent("events.bin")) == Data("precious".utf8))
    }

    @Test func aSymlinkedLockIsRefusedAndItsTargetKept() async throws {
        let dir = TemporaryDirectory("foreign")
        let workspace = dir.path("ws")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        let victim = dir.path("victim.txt")
        try Data("do not truncate me".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: workspace.appendingPathComponent("lock"), withDestinationURL: victim)
        // `index` takes the lock before anything else.
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("symlink"), "\(outcome.standardError)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "do not truncate me")
    }
}

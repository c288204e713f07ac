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

    /// Issue 46: an export removed `notes.qbtmp` and `mydata.qbtmp/thesis.txt` of the user as
    /// debris. Only the scratch an export makes, by the names it makes, goes: a version directory
    /// being written, the link that switches `current`, a spill file, and the temporary names of
    /// the cache directory's files.
    @Test func onlyTheScratchAnExportMakesIsRemoved() throws {
        let dir = TemporaryDirectory("foreign-scratch")
        let out = dir.path("outA")
        let store = try TestStore(workspace: dir.url, samples: [PublishTests.sample])
        let first = try ExportHelpers.export(store, to: out) { $0.thinning.maxZoom = 3 }
        let manager = FileManager.default
        let mine = ["notes.qbtmp", "mydata.qbtmp/thesis.txt", ".v1-draft.qbtmp/a.txt", ".v000009-0123456789ABCDEF.qbtmp/b.txt", ".spill-toolong1",
                    "current.qbtmp.txt", ".export-cache/mine.qbtmp", ".export-cache/.published-files.txt.12-x.qbtmp"]
        for path in mine {
            try manager.createDirectory(at: out.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("the user's".utf8).write(to: out.appendingPathComponent(path))
        }
        // What a killed export leaves.
        try manager.createDirectory(at: out.appendingPathComponent(".v000009-0123456789abcdef.qbtmp/tiles.qbtmp"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: out.appendingPathComponent("current.qbtmp").path, withDestinationPath: first.directory.lastPathComponent)
        let ours = [".spill-Ab12Cd", ".export-cache/events.bin.qbtmp", ".export-cache/export-state.bin.qbtmp",
                    ".export-cache/quakes.sqlite.previous.qbtmp", ".export-cache/.published-files.txt.4242-123456.qbtmp"]
        for path in ours { try Data("debris".utf8).write(to: out.appendingPathComponent(path)) }

        _ = try ExportHelpers.export(store, to: out) { $0.thinning.maxZoom = 4 }
        for path in mine {
            #expect((try? String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)) == "the user's", "\(path) kept")
        }
        for path in ours + [".v000009-0123456789abcdef.qbtmp", "current.qbtmp"] {
            var info = stat()
            #expect(lstat(out.appendingPathComponent(path).path, &info) != 0, "\(path) removed")
        }
    }

    /// Export refuses to publish into the root, a system directory or a home directory (a
    /// symlink to one included) before it writes anything; so does `bake`, before it fetches.
    /// (The refusals are asked of a workspace without a store: a quake-bake that did not refuse
    /// would stop at "no store" rather than write into /etc.)
    @Test func systemAndHomeDirectoriesAreRefusedAsOutput() async throws {
        let dir = TemporaryDirectory("foreign-out")
        let empty = dir.path("no-store").path
        let link = dir.path("looks-harmless")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc")
        let fakeHome = dir.path("home")
        let cases: [(String, String)] = [
            ("/", "the output directory / is the root of the file system"), ("/etc", "the output directory /etc is a system directory"),
            ("/usr/", "the output directory /usr is a system directory"), ("/usr/local", "/usr/local is a system directory"),
            ("/var/lib", "/var/lib is a system directory"), ("/tmp/../etc", "the output directory /etc is a system directory"),
            ("/home/someone", "/home/someone is a home directory"), (link.path, "\(link.path) (/etc) is a system directory"),
            (fakeHome.path, "\(fakeHome.path) is a home directory"),
        ]
        for (out, message) in cases {
            let outcome = try await ChildProcess.run("/usr/bin/env", ["HOME=\(fakeHome.path)", try QuakeBakeCLI.path(), "export", "--workspace", empty, "--out", out])
            #expect(outcome.status == 64 && outcome.standardError.contains(message), "\(out): \(outcome.status) \(outcome.standardError)")
        }
        // The password database's home of this user counts as well as $HOME.
        if let entry = getpwuid(getuid()), let home = entry.pointee.pw_dir.map({ String(cString: $0) }) {
            #expect(throws: QuakeBakeError.self) { try OutputDirectory.check(URL(fileURLWithPath: home)) }
        }
        #expect(!FileManager.default.fileExists(atPath: "/home/someone"))
        // A directory of its own below them is fine.
        _ = try TestStore(workspace: dir.url, samples: [PublishTests.sample])
        let fine = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--quiet", "--max-zoom", "2", "--out", fakeHome.appendingPathComponent("quakes").path])
        #expect(fine.status == 0, "\(fine.standardError)")

        let config = dir.path("bake.yaml")  // `out: ~` would be YAML's null: the home directory is "~"
        try "workspace: \(dir.url.path)\nservice: http://127.0.0.1:9/fdsnws/event/1/\nexport:\n  out: \"~\"\n".write(to: config, atomically: true, encoding: .utf8)
        let bake = try await ChildProcess.run("/usr/bin/env", ["HOME=\(fakeHome.path)", try QuakeBakeCLI.path(), "bake", "--config", config.path])
        #expect(bake.status == 64 && bake.standardError.contains("is a home directory"), "\(bake.status) \(bake.standardError)")
    }
}

import Foundation
import QuakeCommon
import QuakeOperations
import Testing
import TestSupport

/// `status` answers on a read-only workspace, on a full disk (issue 13) and with damaged
/// parts, and writes nothing. Both are real: a read-only bind mount and a full tmpfs, in a private mount
/// namespace (`unshare -rm`), so the test needs no privileges and leaves no mount behind.
@Suite struct StatusOnReadOnlyWorkspaceTests {
    /// A workspace with a store, a bundle and a run history (a failed bake: the service is not there).
    static func workspace(_ directory: TemporaryDirectory) async throws -> URL {
        let root = directory.path("ws")
        _ = try await QuakeBakeCLI.run(["bake", "--workspace", root.path, "--service", "http://127.0.0.1:9/fdsnws/event/1/",
                                        "--max-attempts", "1", "--quiet"])
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root.path, "--quiet",
                                        "--from", TestData.usgs("feed-2.5_month-2019-07.csv.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root.path, "--quiet", "--max-zoom", "4"]).checked()
        return root
    }

    /// Runs `script` with `$1` the workspace and `$2` quake-bake, in a private mount namespace.
    static func inNamespace(_ script: String, _ arguments: [String]) async throws -> ChildProcess.Outcome {
        try await ChildProcess.run("unshare", ["-rm", "sh", "-c", script, "sh"] + arguments)
    }

    static func decoded(_ outcome: ChildProcess.Outcome) throws -> WorkspaceStatus {
        try JSONDecoder().decode(WorkspaceStatus.self, from: Data(outcome.standardOutput.utf8))
    }

    /// Names, sizes and modification times of every file under `root`.
    static func listing(_ root: URL) throws -> [String] {
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])!
        return try enumerator.compactMap { $0 as? URL }.map { url in
            let values = try url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
            return "\(url.path) \(values.fileSize ?? -1) \(values.contentModificationDate?.timeIntervalSince1970 ?? 0)"
        }.sorted()
    }

    @Test func statusAnswersOnAReadOnlyWorkspace() async throws {
        let directory = TemporaryDirectory("status-ro")
        let root = try await Self.workspace(directory)
        let before = try Self.listing(root)
        let outcome = try await Self.inNamespace(#"mount --bind -o ro "$1" "$1" && exec "$2" status --json --workspace "$1""#,
                                                 [root.path, try QuakeBakeCLI.path()])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let status = try Self.decoded(outcome)
        #expect(status.store?.events == 3_121)
        #expect(status.bundle?.events == 3_121)
        // Every run, the stage commands' too, newest first (issue 17.5).
        #expect(status.runs.map(\.command) == ["export", "index", "bake"], "\(status.runs)")
        #expect(status.runs.map(\.outcome) == ["ok", "ok", "temporary failure"], "\(status.runs)")
        // The failed run says why in words (not an error type's bridged dump).
        let why = status.runs.last?.message ?? ""
        #expect(why.contains("did not answer http://127.0.0.1:9/") && !why.contains("Error Domain"), "\(why)")
        #expect(try Self.listing(root) == before, "status wrote to the workspace")
    }

    @Test func statusAnswersOnAFullDisk() async throws {
        let directory = TemporaryDirectory("status-full")
        let root = try await Self.workspace(directory)
        let mountPoint = directory.path("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        // A 64 MB disk holding a copy of the workspace without its -shm files (so opening
        // a database would have to create one), then filled to the last byte.
        let script = #"""
            mount -t tmpfs -o size=64m tmpfs "$3" && cp -a "$1" "$3/ws" && rm -f "$3"/ws/*-shm "$3"/ws/*/*-shm &&
            { head -c 100000000 /dev/zero > "$3/filler" 2>/dev/null; [ "$(df --output=avail "$3" | tail -n 1)" -eq 0 ]; } &&
            exec "$2" status --json --workspace "$3/ws"
            """#
        let outcome = try await Self.inNamespace(script, [root.path, try QuakeBakeCLI.path(), mountPoint.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let status = try Self.decoded(outcome)
        #expect(status.store?.events == 3_121)
        #expect(status.bundle?.events == 3_121)
    }

    /// A damaged store and run history are named, with the file and why; the archive and the
    /// bundle are shown all the same, and the exit status is 1.
    @Test func statusNamesDamagedPartsAndShowsTheRest() async throws {
        let directory = TemporaryDirectory("status-damaged")
        let root = try await Self.workspace(directory)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        for file in ["store/quakes.sqlite", "runs.sqlite"] {
            for extra in ["-wal", "-shm"] { try? FileManager.default.removeItem(at: root.appendingPathComponent(file + extra)) }
            try garbage.write(to: root.appendingPathComponent(file))
        }
        let text = try await QuakeBakeCLI.run(["status", "--workspace", root.path])
        #expect(text.status == 1, "\(text.standardError)")
        #expect(text.standardOutput.contains("store: cannot read \(root.path)/store/quakes.sqlite: SQLite error 26: file is not a database"),
                "\(text.standardOutput)")
        #expect(text.standardOutput.contains("runs: cannot read \(root.path)/runs.sqlite"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("bundle: v000001-") && text.standardOutput.contains("3,121 events"), "\(text.standardOutput)")
        #expect(text.standardError.contains("2 parts of the workspace could not be read (above)"), "\(text.standardError)")
        let json = try await QuakeBakeCLI.run(["status", "--json", "--workspace", root.path])
        let status = try Self.decoded(json)
        #expect(json.status == 1 && status.store == nil && status.bundle?.events == 3_121 && status.problems.count == 2, "\(json.standardOutput)")
    }
}

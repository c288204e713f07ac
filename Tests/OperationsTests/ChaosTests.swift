import Foundation
import QuakeCommon
import QuakeOperations
import Testing
import TestSupport

/// Kill `bake` with SIGKILL at random moments, run it again, and check nothing is corrupt or lost.
///
/// Three trials in the regular suite; `Scripts/chaos 100` runs a hundred (`QUAKE_BAKE_CHAOS_TRIALS`)
/// and prints the figures. The moments of the kills come from a seed, printed with the figures
/// (`QUAKE_BAKE_CHAOS_SEED` replays a run's choices; by default a new one each run).
@Suite(.serialized, .tags(.chaos), .unlessSkipped(.chaos)) struct ChaosTests {
    static let stages = ["fetch", "index", "export", "switch"]

    @Test func killedBakesLeaveNothingCorruptOrLost() async throws {
        let trials = ProcessInfo.processInfo.environment["QUAKE_BAKE_CHAOS_TRIALS"].flatMap(Int.init) ?? 3
        let seed = ProcessInfo.processInfo.environment["QUAKE_BAKE_CHAOS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64(UInt32.max))
        var random = SeededGenerator(seed: seed)
        let standIn = try StandInProcess(replay: .init(file: TestData.history("all_day-versions-2024-10.csv.gz"),
                                                       start: "2024-10-01T00:00:00Z", seed: 5, renameRate: 0.005, deleteRate: 0.002))
        let directory = TemporaryDirectory("chaos")
        let workspace = Workspace(root: directory.path("ws"))
        let config = directory.path("bake.yaml")
        try """
            service: \(standIn.baseURL.absoluteString)
            selection: { start: "2024-09-01" }
            fetch: { overlap: 25h, retry_delay: 0.01 }
            export: { max_zoom: 4, keep: 2 }
            """.write(to: config, atomically: true, encoding: .utf8)
        let arguments = ["bake", "--config", config.path, "--workspace", workspace.root.path, "--quiet"]

        var kills: [String: Int] = [:], corruptions = 0, lost = 0
        for trial in 1...trials {
            try await standIn.advanceReplay(by: "12h")
            let target = Self.stages[trial % Self.stages.count]
            if let stage = try await Self.killDuring(target, arguments, workspace: workspace, random: &random) { kills[stage, default: 0] += 1 }

            let rerun = try await QuakeBakeCLI.run(arguments)
            #expect(rerun.status == 0, "trial \(trial): \(rerun.standardError)")
            let integrity = try CatalogComparison.integrity(of: workspace.storePath)
            let comparison = try await CatalogComparison.compare(store: workspace.storePath, with: standIn, start: "2024-09-01")
            let bundleProblems = Self.bundleProblems(workspace.bundlesDirectory)
            let debris = Self.debris(under: workspace.root)
            if integrity != "ok" || !bundleProblems.isEmpty { corruptions += 1 }
            lost += comparison.missing.count
            #expect(integrity == "ok", "trial \(trial)")
            #expect(comparison.mismatches == 0, "trial \(trial): \(comparison)")
            #expect(bundleProblems.isEmpty, "trial \(trial): \(bundleProblems)")
            #expect(debris.isEmpty, "trial \(trial): \(debris)")
        }
        // A kill can also land after the run recorded its end (stage `done`), as the process exits.
        let perStage = (Self.stages + kills.keys.filter { !Self.stages.contains($0) }.sorted())
            .map { "\($0) \(kills[$0] ?? 0)" }.joined(separator: ", ")
        let finished = trials - kills.values.reduce(0, +)
        print("chaos (seed \(seed)): \(trials) trials; kills per stage: \(perStage) (finished before their kill: \(finished)); "
              + "corruptions: \(corruptions); events lost: \(lost)")
        #expect(corruptions == 0 && lost == 0)
    }

    /// Starts a bake and SIGKILLs it once the run history shows it in `stage` (or a later one),
    /// after a further random pause of up to 50 ms (2 ms for the switch of `current`, which takes a few ms). Returns the
    /// stage it died in, or `nil` if it finished first.
    static func killDuring(_ stage: String, _ arguments: [String], workspace: Workspace, random: inout SeededGenerator) async throws -> String? {
        let previous = (try? RecordedRun.recent(in: workspace, limit: 1))?.first?.id ?? -1
        let wanted = stages.firstIndex(of: stage)!
        let pause = UInt32.random(in: 0...(stage == "switch" ? 2_000 : 50_000), using: &random)
        let run = try await QuakeBakeCLI.run(arguments, killedWhen: {
            guard let run = try? RecordedRun.recent(in: workspace, limit: 1).first, run.id != previous,
                  let index = stages.firstIndex(of: run.stage), index >= wanted else { return false }
            usleep(pause)   // a random moment within the stage, not a wait for it
            return true
        })
        return run.killed ? try RecordedRun.recent(in: workspace, limit: 1).first?.stage : nil
    }

    /// What is wrong with the current bundle: missing files, sizes or checksums that do not match its manifest.
    static func bundleProblems(_ bundles: URL) -> [String] {
        let current = bundles.appendingPathComponent("current")
        guard let data = try? Data(contentsOf: current.appendingPathComponent("manifest.json")),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let files = manifest["files"] as? [[String: Any]], !files.isEmpty else { return ["no readable manifest in \(current.path)"] }
        return files.compactMap { file in
            guard let path = file["path"] as? String, let bytes = file["bytes"] as? Int, let sha = file["sha256"] as? String else {
                return "a manifest entry is incomplete"
            }
            guard let content = try? Data(contentsOf: current.appendingPathComponent(path)) else { return "\(path) is missing" }
            if content.count != bytes { return "\(path) has \(content.count) bytes, the manifest says \(bytes)" }
            if SHA256.hex(content) != sha { return "\(path) does not match its sha256" }
            return nil
        }
    }

    /// Temporary files left anywhere in the workspace.
    static func debris(under root: URL) -> [String] {
        (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(AtomicFile.temporarySuffix) }
    }
}

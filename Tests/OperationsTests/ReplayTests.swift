import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Bake every simulated 6 hours through real catalog history, with faults, and stay exact.
///
/// The regular suite replays October 2024 (`data/history`). `Scripts/replay` replays the whole
/// 4.5 years of `../shared/data/usgs/history/all_day-versions-2022-2026.csv.gz` through the same
/// test (`QUAKE_BAKE_REPLAY_FILE`, `QUAKE_BAKE_REPLAY_START`, `QUAKE_BAKE_REPLAY_STEPS`) and prints its figures.
///
/// The overlap is 25 hours: the history was recorded by observers polling the feed, who saw
/// some versions up to 24 hours after their `updated` time, so a version may first be served
/// that long after the high-water mark passed its `updated` (the real service's lag is minutes).
///
/// A long replay can be stopped and taken up again: with `QUAKE_BAKE_REPLAY_DIR` set, the
/// workspace and a progress file live there, and a new run first brings the stand-in back to
/// the last completed step (its simulation is seeded and advances step by step, so the same
/// steps give the same catalog), then goes on from the next one.
@Suite(.serialized, .tags(.replay), .unlessSkipped(.replay), .onAThreadOfItsOwn) struct ReplayTests {
    /// What a replay has done so far, kept in `QUAKE_BAKE_REPLAY_DIR/progress.json`.
    struct Progress: Codable, Equatable {
        var file: String
        var start: String
        var completedSteps = 0
        var mismatchedSteps = 0
        /// Faults injected up to the last progress line (a stopped run's later ones are not counted).
        var faults = 0
        var seconds = 0.0
        /// The figures after the last completed step (optional: files of earlier runs lack them).
        var asOf: String?
        var servedEvents: Int?
        var versionsApplied: Int?
        var renamed: Int?
        var deleted: Int?

        /// One line of figures, as printed every 100 steps.
        func line(of steps: Int) -> String {
            "replay: step \(completedSteps) of \(steps), as of \(asOf ?? "?"), \(servedEvents ?? 0) events served, "
                + "\(versionsApplied ?? 0) versions applied, \(renamed ?? 0) preferred-id changes, \(deleted ?? 0) deletions, "
                + "\(faults) faults; \(mismatchedSteps) mismatched steps so far, \(Int(seconds)) s"
        }
    }

    @Test func replayedHistoryStaysExactAtEveryStep() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = environment["QUAKE_BAKE_REPLAY_FILE"].map { URL(fileURLWithPath: $0) }
            ?? TestData.history("all_day-versions-2024-10.csv.gz")
        let start = environment["QUAKE_BAKE_REPLAY_START"] ?? "2024-10-01T00:00:00Z"
        let steps = environment["QUAKE_BAKE_REPLAY_STEPS"].flatMap(Int.init) ?? 124
        let temporary = TemporaryDirectory("replay")
        let directory = environment["QUAKE_BAKE_REPLAY_DIR"].map { URL(fileURLWithPath: $0) } ?? temporary.url
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let progressFile = directory.appendingPathComponent("progress.json")
        let progressLog = directory.appendingPathComponent("progress.log")
        var progress = Progress(file: file.lastPathComponent, start: start)
        if let data = try? Data(contentsOf: progressFile) {
            let saved = try JSONDecoder().decode(Progress.self, from: data)
            try #require(saved.file == progress.file && saved.start == progress.start,
                         "\(progressFile.path) is a replay of \(saved.file) from \(saved.start); start afresh (Scripts/replay --fresh)")
            progress = saved
        }
        let standIn = try StandInProcess(
            faults: ["503,rate=0.02,seed=3", "disconnect,rate=0.01,seed=5", "wrongcount=2,rate=0.03,seed=9,on=count"],
            replay: .init(file: file, start: start, seed: 11, renameRate: 0.005, deleteRate: 0.002))
        let config = directory.appendingPathComponent("bake.yaml")
        let workspace = directory.appendingPathComponent("ws")
        let store = workspace.appendingPathComponent("store/quakes.sqlite")
        let selectionStart = ISOTime.format(milliseconds: ISOTime.parse(start)! - 30 * 86_400_000)
        try """
            service: \(standIn.baseURL.absoluteString)
            selection: { start: "\(selectionStart)" }
            fetch: { overlap: 25h, retry_delay: 0.01, max_attempts: 8 }
            export: { max_zoom: 6, keep: 2 }
            """.write(to: config, atomically: true, encoding: .utf8)
        // Max zoom 6, not lower: every event is in a tile of the max zoom, and at zoom 3 a tile holds a
        // whole region, so each step re-encoded nearly every event; at 6 a step re-encodes the tiles it touches.
        let arguments = ["bake", "--config", config.path, "--workspace", workspace.path, "--quiet"]

        // Taking up a stopped replay: the stand-in replays the completed steps again, without bakes.
        var totals: StandInProcess.ReplayProgress.Counts?
        for _ in 0..<progress.completedSteps { totals = try await standIn.advanceReplay(by: "6h").totals }
        if progress.completedSteps > 0 {
            try appendLine("replay: taking up after step \(progress.completedSteps)", to: progressLog)
        }

        var last: StandInProcess.Digest?
        let began = Date()
        let secondsBefore = progress.seconds, faultsBefore = progress.faults
        for step in progress.completedSteps + 1 ..< steps + 1 {
            let advanced = try await standIn.advanceReplay(by: "6h")
            totals = advanced.totals
            let outcome = try await QuakeBakeCLI.run(arguments)
            #expect(outcome.status == 0, "step \(step): \(outcome.standardError)")
            // Digests first (cheap at any size; the two sides at once); the full comparison names what differs.
            async let servedDigest = standIn.catalogDigest("starttime=\(selectionStart)")
            let stored = try CatalogComparison.storeDigest(store)
            let served = try await servedDigest
            last = served
            if stored.digest != served.digest || stored.events != served.events {
                progress.mismatchedSteps += 1
                let comparison = try await CatalogComparison.compare(store: store, with: standIn, start: selectionStart)
                Issue.record("step \(step) (\(ISOTime.format(milliseconds: advanced.asOf))): \(comparison)")
            }
            progress.completedSteps = step
            progress.seconds = secondsBefore + Date().timeIntervalSince(began)
            progress.asOf = ISOTime.format(milliseconds: advanced.asOf)
            progress.servedEvents = served.events
            progress.versionsApplied = advanced.totals.applied
            progress.renamed = advanced.totals.renamed
            progress.deleted = advanced.totals.deleted
            if step % 100 == 0 {
                progress.faults = faultsBefore + (try await standIn.requests().filter { $0.fault != nil }.count)
                // `swift test` hands the test's output on only at the end: a long replay is watched in progress.log.
                let line = progress.line(of: steps)
                print(line)
                try appendLine(line, to: progressLog)
            }
            try JSONEncoder().encode(progress).write(to: progressFile, options: .atomic)
        }
        progress.faults = faultsBefore + (try await standIn.requests().filter { $0.fault != nil }.count)
        try JSONEncoder().encode(progress).write(to: progressFile, options: .atomic)
        let renamed = totals?.renamed ?? 0, deleted = totals?.deleted ?? 0
        print("""
            replay: \(steps) steps of 6 h from \(start), \(totals?.applied ?? 0) versions applied, \(renamed) preferred-id changes, \
            \(deleted) deletions simulated, \(progress.faults) faults injected; at the end \(last?.events ?? 0) events served and \
            \(last?.deleted ?? 0) deleted; store equal to the served catalog after \(steps - progress.mismatchedSteps) of \(steps) steps \
            (mismatched steps: \(progress.mismatchedSteps)); \(String(format: "%.0f", progress.seconds)) s
            """)
        try appendLine(progress.line(of: steps), to: progressLog)
        #expect(progress.mismatchedSteps == 0)
        #expect(renamed > 0 && deleted > 0 && progress.faults > 0)
    }

    private func appendLine(_ line: String, to url: URL) throws {
        if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data((line + "\n").utf8))
    }
}

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
@Suite(.serialized) struct ReplayTests {
    @Test func replayedHistoryStaysExactAtEveryStep() async throws {
        let environment = ProcessInfo.processInfo.environment
        let file = environment["QUAKE_BAKE_REPLAY_FILE"].map { URL(fileURLWithPath: $0) }
            ?? TestData.history("all_day-versions-2024-10.csv.gz")
        let start = environment["QUAKE_BAKE_REPLAY_START"] ?? "2024-10-01T00:00:00Z"
        let steps = environment["QUAKE_BAKE_REPLAY_STEPS"].flatMap(Int.init) ?? 124
        let standIn = try StandInProcess(
            faults: ["503,rate=0.02,seed=3", "disconnect,rate=0.01,seed=5", "wrongcount=2,rate=0.03,seed=9,on=count"],
            replay: .init(file: file, start: start, seed: 11, renameRate: 0.005, deleteRate: 0.002))
        let directory = TemporaryDirectory("replay")
        let config = directory.path("bake.yaml")
        let selectionStart = ISOTime.format(milliseconds: ISOTime.parse(start)! - 30 * 86_400_000)
        try """
            service: \(standIn.baseURL.absoluteString)
            selection: { start: "\(selectionStart)" }
            fetch: { overlap: 25h, retry_delay: 0.01, max_attempts: 8 }
            export: { max_zoom: 3, keep: 2 }
            """.write(to: config, atomically: true, encoding: .utf8)
        let arguments = ["bake", "--config", config.path, "--workspace", directory.path("ws").path, "--quiet"]

        var mismatchedSteps = 0
        var last: StandInProcess.Digest?
        var renamed = 0, deleted = 0, applied = 0
        let began = Date()
        for step in 1...steps {
            let progress = try await standIn.advanceReplay(by: "6h")
            renamed += progress.step?.renamed ?? 0
            deleted += progress.step?.deleted ?? 0
            applied += progress.step?.applied ?? 0
            let outcome = try await QuakeBakeCLI.run(arguments)
            #expect(outcome.status == 0, "step \(step): \(outcome.standardError)")
            // Digests first (cheap at any size); the full comparison names what differs.
            let served = try await standIn.catalogDigest("starttime=\(selectionStart)")
            let stored = try CatalogComparison.storeDigest(directory.path("ws/store/quakes.sqlite"))
            last = served
            if stored.digest != served.digest || stored.events != served.events {
                mismatchedSteps += 1
                let comparison = try await CatalogComparison.compare(store: directory.path("ws/store/quakes.sqlite"), with: standIn,
                                                                     start: selectionStart)
                Issue.record("step \(step) (\(ISOTime.format(milliseconds: progress.asOf))): \(comparison)")
            }
            if step % 100 == 0 {
                print("replay: step \(step) of \(steps), as of \(ISOTime.format(milliseconds: progress.asOf)), \(served.events) events "
                      + "served, \(applied) versions applied, \(renamed) preferred-id changes, \(deleted) deletions; "
                      + "\(mismatchedSteps) mismatched steps so far, \(Int(Date().timeIntervalSince(began))) s")
                fflush(nil)  // a long replay is watched while it runs
            }
        }
        let faults = try await standIn.requests().filter { $0.fault != nil }.count
        print("""
            replay: \(steps) steps of 6 h from \(start), \(applied) versions applied, \(renamed) preferred-id changes, \
            \(deleted) deletions simulated, \(faults) faults injected; at the end \(last?.events ?? 0) events served and \
            \(last?.deleted ?? 0) deleted; store equal to the served catalog after \(steps - mismatchedSteps) of \(steps) steps \
            (mismatched steps: \(mismatchedSteps)); \(String(format: "%.0f", Date().timeIntervalSince(began))) s
            """)
        #expect(mismatchedSteps == 0)
        #expect(renamed > 0 && deleted > 0 && faults > 0)
    }
}

import Foundation
import GRDB
import QuakeCommon
import QuakeOperations
import Testing
import TestSupport

/// SIGTERM and SIGINT (issue 13): one line saying what was interrupted, exit 143/130, the lock
/// free for the next run, a bake recorded as interrupted at its stage, and nothing lost: the
/// next run completes from where this one stopped.
@Suite struct InterruptionTests {
    static let sample = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")
    static let selection = ["--start", "2010-01-01", "--end", "2021-01-01"]

    /// True once the fetch journal exists: the run holds the lock and is inside the fetch stage.
    static func fetching(_ workspace: Workspace) -> @Sendable () -> Bool {
        let journal = workspace.journalPath.path
        return { FileManager.default.fileExists(atPath: journal) }
    }

    @Test func sigtermDuringFetchSaysSoExits143AndTheNextRunCompletes() async throws {
        // Every query stalls, so the signal lands while a request is under way.
        let standIn = try StandInProcess(catalogs: [Self.sample], faults: ["stall=60,every=1,on=query"])
        let directory = TemporaryDirectory("interrupt")
        let workspace = Workspace(root: directory.path("ws"))
        let arguments = ["fetch", "--workspace", workspace.root.path, "--service", standIn.baseURL.absoluteString] + Self.selection
        let outcome = try await QuakeBakeCLI.run(arguments, signal: SIGTERM, when: Self.fetching(workspace))
        #expect(outcome.status == 143, "\(outcome.standardError)")
        let lines = outcome.standardError.split(separator: "\n").filter { $0.contains("interrupted") }
        #expect(lines == ["quake-bake fetch: interrupted by SIGTERM during fetch; finished work is kept and the next run resumes from it (exit 143)"],
                "\(outcome.standardError)")
        #expect(WorkspaceLock.holder(of: workspace) == nil)

        try await standIn.clearFaults()
        let again = try await QuakeBakeCLI.run(arguments)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError.contains("456 events"), "\(again.standardError)")
    }

    @Test func sigintDuringBakeIsRecordedAtItsStage() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], faults: ["stall=60,every=1,on=query"])
        let directory = TemporaryDirectory("interrupt")
        let workspace = Workspace(root: directory.path("ws"))
        let arguments = ["bake", "--workspace", workspace.root.path, "--service", standIn.baseURL.absoluteString] + Self.selection
        let outcome = try await QuakeBakeCLI.run(arguments, signal: SIGINT, when: Self.fetching(workspace))
        #expect(outcome.status == 130, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("quake-bake bake: interrupted by SIGINT during fetch"), "\(outcome.standardError)")
        let runs = try RecordedRun.recent(in: workspace)
        #expect(runs.first?.outcome == "interrupted" && runs.first?.stage == "fetch", "\(runs)")
        #expect(runs.first?.message == "interrupted by SIGINT during fetch")
    }
}

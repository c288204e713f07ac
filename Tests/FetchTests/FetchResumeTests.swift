import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// A fetch killed at any moment and started again finishes with no page lost or doubled.
@Suite struct FetchResumeTests {
    @Test func killedFetchesResumeToACompleteArchive() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m6-1973-2023.csv.gz")], cap: 100)
        let directory = TemporaryDirectory()
        let arguments = ["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString,
                         "--start", "1973-01-01", "--end", "2024-01-01", "--quiet", "--retry-delay", "0.01"]
        let (kills, exits) = try await Self.killRepeatedly(arguments, workspace: Workspace(root: directory.url), trials: 5)
        let final = try await QuakeBakeCLI.run(arguments)
        #expect(final.status == 0, "\(final.standardError)")
        #expect(kills == 5, "exit statuses \(exits)")

        let workspace = Workspace(root: directory.url)
        let expected = try await FetchSupport.servedIDs(standIn, "starttime=1973-01-01&endtime=2024-01-01")
        let pages = try FetchSupport.archivedPages(workspace)
        #expect(try FetchSupport.archivedIDs(workspace) == expected)
        // One run, finished across invocations: its pages never repeat an event, except one
        // exactly on a shared window boundary (whole second), which both windows include.
        #expect(Set(pages.map { $0.page.file.deletingLastPathComponent() }).count == 1)
        var seen: [String: Int] = [:]
        for (_, events) in pages { for event in events { seen[event.id, default: 0] += 1 } }
        let repeated = try FetchSupport.archivedPages(workspace).flatMap(\.events).filter { seen[$0.id]! > 1 }
        #expect(repeated.allSatisfy { ($0.time ?? 1) % 1000 == 0 })
        #expect(Set(pages.map(\.page.file)).count == pages.count)
        // Nothing half-written is left behind.
        let debris = FileManager.default.enumerator(atPath: workspace.pagesDirectory.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(AtomicFile.temporarySuffix) } ?? []
        #expect(debris.isEmpty)
    }

    /// Starts the fetch `trials` times and SIGKILLs it each time: the first while planning (as soon as
    /// its journal exists), the others after a random number of archived pages, well before the ~70
    /// windows of the plan are done. Returns the kills made and the exit statuses.
    static func killRepeatedly(_ arguments: [String], workspace: Workspace, trials: Int) async throws -> (Int, [Int32]) {
        var kills = 0
        var exits: [Int32] = []
        for trial in 0..<trials {
            let target = trial == 0 ? 0 : Int.random(in: 1...30)
            let run = try await QuakeBakeCLI.run(arguments, killedWhen: {
                trial == 0 ? FileManager.default.fileExists(atPath: workspace.journalPath.path)
                           : ((try? Archive.pages(in: workspace).count) ?? 0) >= target
            })
            if run.killed { kills += 1 }
            exits.append(run.status)
        }
        return (kills, exits)
    }

    @Test func secondFetchOnTheSameWorkspaceRefuses() async throws {
        // The first fetch's query stalls for ten minutes, so it holds the lock while the second starts.
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m6-1973-2023.csv.gz")], cap: 100,
                                         faults: ["stall=600,on=query,next=1"])
        let directory = TemporaryDirectory()
        let arguments = ["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString,
                         "--start", "1973-01-01", "--end", "2024-01-01", "--quiet"]
        // Timeouts longer than the stall, so the first run is still waiting when the second starts.
        let logs = TemporaryDirectory()
        let errors = logs.path("first-fetch.err")
        let first = try QuakeBakeCLI.start(arguments + ["--connect-timeout", "900", "--read-timeout", "900", "--request-deadline", "900"],
                                           standardError: errors)
        defer { if first.isRunning { first.terminate() }; first.waitUntilExit() }
        try await waitUntil("the first fetch's first request") {
            guard first.isRunning else {
                let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw ChildProcess.Failure(description: "the first fetch ended (status \(first.terminationStatus)) before the stand-in saw a request: \(said)")
            }
            return try await !standIn.requests().isEmpty
        }
        let second = try await QuakeBakeCLI.run(arguments)
        #expect(first.isRunning)
        #expect(second.status == ExitStatus.temporaryFailure.rawValue)
        #expect(second.standardError.contains("in use by"))
    }
}

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
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for trial in 0..<5 {
            let process = try QuakeBakeCLI.start(arguments)
            // Kill at a random moment: early (while planning) in the first trial, else after a random
            // number of archived pages, well before the ~70 windows of the plan are all fetched.
            if trial == 0 {
                try await Task.sleep(nanoseconds: UInt64.random(in: 1_000_000...100_000_000, using: &generator))
            } else {
                let target = Int.random(in: 1...30, using: &generator)
                let workspace = Workspace(root: directory.url)
                while process.isRunning, (try? Archive.pages(in: workspace).count) ?? 0 < target {
                    try await Task.sleep(nanoseconds: 5_000_000)
                }
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
        }
        let final = try QuakeBakeCLI.run(arguments)
        #expect(final.status == 0, "\(final.standardError)")
        #expect(kills > 0)

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

    @Test func secondFetchOnTheSameWorkspaceRefuses() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m6-1973-2023.csv.gz")], cap: 100, faults: ["stall=3,next=1"])
        let directory = TemporaryDirectory()
        let arguments = ["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString,
                         "--start", "1973-01-01", "--end", "2024-01-01", "--quiet"]
        let first = try QuakeBakeCLI.start(arguments)
        defer { if first.isRunning { first.terminate() }; first.waitUntilExit() }
        // The first run holds the lock while the stand-in stalls its first answer for 3 s.
        while try await standIn.requests().isEmpty { try await Task.sleep(nanoseconds: 20_000_000) }
        let second = try QuakeBakeCLI.run(arguments)
        #expect(second.status == ExitStatus.temporaryFailure.rawValue)
        #expect(second.standardError.contains("in use by"))
    }
}

import Foundation
import QuakeCommon
import Testing
import TestSupport

/// A user name and password in `--service` (issue 13) are used, and never shown: not in
/// the log (even `--verbose`), not in error messages, not in the journal.
@Suite struct CredentialsTests {
    @Test func credentialsInTheServiceURLNeverReachLogsOrTheJournal() async throws {
        let standIn = try StandInProcess(catalogs: [FetchFaultTests.sample], faults: ["503,every=1,on=query"])
        let directory = TemporaryDirectory("credentials")
        let workspace = Workspace(root: directory.path("ws"))
        var service = try #require(URLComponents(url: standIn.baseURL, resolvingAgainstBaseURL: false))
        service.user = "quaker"
        service.password = "s3cret-pass"
        let arguments = ["fetch", "--verbose", "--workspace", workspace.root.path, "--service", try #require(service.string),
                         "--start", "2010-01-01", "--end", "2021-01-01", "--max-attempts", "2", "--retry-delay", "0"]
        let failing = try await QuakeBakeCLI.run(arguments)
        #expect(failing.status == 75, "\(failing.standardError)")
        try await standIn.clearFaults()
        let working = try await QuakeBakeCLI.run(arguments)
        #expect(working.status == 0, "\(working.standardError)")
        for outcome in [failing, working] {
            #expect(!outcome.standardError.contains("s3cret") && !outcome.standardOutput.contains("s3cret"), "\(outcome.standardError)")
            #expect(!outcome.standardError.contains("quaker"))
        }
        #expect(failing.standardError.contains("http://***@127.0.0.1"), "\(failing.standardError)")
        let archive = workspace.journalPath.deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: archive.path) where name.hasPrefix("journal") {
            let bytes = try Data(contentsOf: archive.appendingPathComponent(name))
            #expect(bytes.range(of: Data("s3cret".utf8)) == nil, "\(name)")
        }
    }
}

import Foundation
import QuakeCommon
import Testing
import TestSupport

/// Bad flags are refused with a clear message before any request is sent.
@Suite struct FetchCommandLineTests {
    @Test(arguments: [
        (["--start", "2024-01-02", "--end", "2024-01-01"], "is before --start"),
        (["--circle", "91,0,100"], "latitude 91 is outside"),
        (["--bbox", "1,2,3"], "west,south,east,north"),
        (["--bbox", "10,95,20,10"], "latitude 95 is outside -90…90"),
        (["--start", "yesterday"], "not an ISO-8601 time"),
        (["--incremental", "--full"], "cannot be used together"),
        (["--overlap", "ten"], "not a duration"),
        (["--catalog", ""], "--catalog \"\" must be a catalog name"),
        // Numbers past any real use, which later arithmetic once trapped on (SIGILL): refused with their range.
        (["--overlap", "inf"], "not a duration"),
        (["--overlap", "1e300d"], "longer than a year"),
        (["--overlap", "400d"], "longer than a year"),
        (["--read-timeout", "1e308"], "--read-timeout must be 0.001…86400.0 seconds, not 1e+308"),
        (["--retry-delay", "nan"], "--retry-delay must be 0.0…3600.0 seconds, not nan"),
        (["--give-up-after", "inf"], "--give-up-after must be 0.001…86400.0 seconds"),
        (["--concurrency", "100000"], "--concurrency must be 1…16, not 100000"),
        (["--max-body", "17592186044416"], "--max-body must be 1…4096"),
    ])
    func badFlagsStopBeforeAnyRequest(flags: [String], message: String) async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")])
        let directory = TemporaryDirectory()
        let outcome = try await QuakeBakeCLI.run(["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString] + flags)
        #expect(outcome.status == ExitStatus.usage.rawValue)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
        #expect(try await standIn.requests().isEmpty)
    }

    @Test func summaryLineAndExitCodeOnSuccess() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")], cap: 200)
        let directory = TemporaryDirectory()
        let outcome = try await QuakeBakeCLI.run(["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString,
                                            "--start", "2010-01-01", "--end", "2021-01-01"])
        #expect(outcome.status == 0)
        #expect(outcome.standardError.contains("full fetch:"))
        #expect(outcome.standardError.contains("456 events"), "\(outcome.standardError)")
        let quiet = try await QuakeBakeCLI.run(["fetch", "--workspace", directory.url.path, "--service", standIn.baseURL.absoluteString,
                                          "--start", "2010-01-01", "--end", "2021-01-01", "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.standardError.isEmpty)
    }
}

import Foundation
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// `quake-bake index` as people and cron run it: messages, exit codes, the lock.
@Suite struct IndexCommandTests {
    func index(_ f: StoreFixture, _ arguments: [String]) async throws -> QuakeBakeCLI.Outcome {
        try await QuakeBakeCLI.run(["index", "--workspace", f.directory.url.path] + arguments)
    }

    @Test func indexesARealFileAndSaysWhatItDid() async throws {
        let f = StoreFixture()
        let result = try await index(f, ["--from", TestData.usgs("query-m6-1973-2023.csv.gz").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("info index: built the store from 1 source: 7,047 events read, 7,047 inserted"))
        #expect(try f.events().count == 7047)
        let again = try await index(f, ["--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path])
        #expect(again.status == 0 && again.standardError.isEmpty)
        let rebuilt = try await index(f, ["--rebuild", "--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(rebuilt.status == 0 && rebuilt.standardError.contains("built the store from 1 source: 2,054 events read"))
        #expect(try f.events().count == 2054)
    }

    /// A file that is not there is said once, in words, and nothing is announced as built (issue 17).
    @Test func aMissingFileIsSaidOnce() async throws {
        let f = StoreFixture()
        let result = try await index(f, ["--from", "/nonexistent/missing.csv"])
        #expect(result.status == ExitStatus.failure.rawValue)
        #expect(result.standardError.components(separatedBy: "missing.csv").count == 2, "\(result.standardError)")
        #expect(result.standardError.contains("/nonexistent/missing.csv: cannot read: No such file or directory"))
        #expect(!result.standardError.contains("built the store"), "\(result.standardError)")
        #expect(result.standardError.contains("the only source could not be read (named above); nothing was indexed"), "\(result.standardError)")
    }

    @Test func versionIsPrinted() async throws {
        let result = try await QuakeBakeCLI.run(["--version"])
        #expect(result.status == 0 && result.standardOutput.hasPrefix("quake-bake "), "\(result.standardOutput)")
    }

    @Test func aRebuildWithNothingToRebuildFromLeavesTheStoreAlone() async throws {
        let f = StoreFixture()
        #expect(try await index(f, ["--from", TestData.usgs("query-m4-1921-2021.csv.gz").path]).status == 0)
        let result = try await index(f, ["--rebuild"])
        #expect(result.status == ExitStatus.usage.rawValue && result.standardError.contains("nothing to rebuild from"))
        #expect(try f.events().count == 2054)
    }

    @Test func aFileThatCannotBeReadFailsTheRunButNotTheOtherFiles() async throws {
        let f = StoreFixture()
        let missing = f.directory.path("missing.geojson").path
        let result = try await index(f, ["--from", missing, "--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(missing): cannot read"))
        #expect(try f.events().count == 2054)
    }

    @Test func aDamagedFileExitsWithTheDataErrorStatus() async throws {
        let f = StoreFixture()
        let broken = try f.file("broken.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","#)
        let result = try await index(f, ["--from", broken.file.path])
        #expect(result.status == ExitStatus.dataError.rawValue)
        #expect(result.standardError.contains("broken.geojson") && result.standardError.contains("see the rejects table"))
    }

    @Test func aLockedWorkspaceExitsAtOnceWithTheTemporaryStatus() async throws {
        let f = StoreFixture()
        let lock = try WorkspaceLock(workspace: Workspace(root: f.directory.url), command: "a test holding the lock")
        defer { lock.release() }
        let result = try await index(f, ["--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(result.status == ExitStatus.temporaryFailure.rawValue)
        #expect(result.standardError.contains("in use by `a test holding the lock`") && result.standardError.contains("kind=locked"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: f.store.path))
    }
}

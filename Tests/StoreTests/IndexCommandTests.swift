import Foundation
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// `quake-bake index` as people and cron run it: messages, exit codes, the lock.
@Suite struct IndexCommandTests {
    func index(_ f: StoreFixture, _ arguments: [String]) throws -> Shell.Result {
        try Shell.run(Shell.quakeBake, ["index", "--workspace", f.directory.url.path] + arguments, check: false)
    }

    @Test func indexesARealFileAndSaysWhatItDid() throws {
        let f = StoreFixture()
        let result = try index(f, ["--from", TestData.usgs("query-m6-1973-2023.csv.gz").path])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.contains("info index: built the store from 1 sources: 7,047 events read, 7,047 inserted"))
        #expect(try f.events().count == 7047)
        let again = try index(f, ["--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path])
        #expect(again.status == 0 && again.errors.isEmpty)
        let rebuilt = try index(f, ["--rebuild", "--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(rebuilt.status == 0 && rebuilt.errors.contains("built the store from 1 sources: 2,054 events read"))
        #expect(try f.events().count == 2054)
    }

    @Test func aRebuildWithNothingToRebuildFromLeavesTheStoreAlone() throws {
        let f = StoreFixture()
        #expect(try index(f, ["--from", TestData.usgs("query-m4-1921-2021.csv.gz").path]).status == 0)
        let result = try index(f, ["--rebuild"])
        #expect(result.status == ExitStatus.usage.rawValue && result.errors.contains("nothing to rebuild from"))
        #expect(try f.events().count == 2054)
    }

    @Test func aFileThatCannotBeReadFailsTheRunButNotTheOtherFiles() throws {
        let f = StoreFixture()
        let missing = f.directory.path("missing.geojson").path
        let result = try index(f, ["--from", missing, "--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(result.status == 1)
        #expect(result.errors.contains("\(missing): cannot read"))
        #expect(try f.events().count == 2054)
    }

    @Test func aDamagedFileExitsWithTheDataErrorStatus() throws {
        let f = StoreFixture()
        let broken = try f.file("broken.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","#)
        let result = try index(f, ["--from", broken.file.path])
        #expect(result.status == ExitStatus.dataError.rawValue)
        #expect(result.errors.contains("broken.geojson") && result.errors.contains("see the rejects table"))
    }

    @Test func aLockedWorkspaceExitsAtOnceWithTheTemporaryStatus() throws {
        let f = StoreFixture()
        let lock = try WorkspaceLock(workspace: Workspace(root: f.directory.url), command: "a test holding the lock")
        defer { lock.release() }
        let result = try index(f, ["--from", TestData.usgs("query-m4-1921-2021.csv.gz").path])
        #expect(result.status == ExitStatus.temporaryFailure.rawValue)
        #expect(result.errors.contains("in use by `a test holding the lock`"))
        #expect(!FileManager.default.fileExists(atPath: f.store.path))
    }
}

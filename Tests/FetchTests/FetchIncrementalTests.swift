import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// After a complete fetch, the next one asks only for what changed, deletions included.
@Suite struct FetchIncrementalTests {
    @Test func incrementalRunFetchesExactlyTheChanges() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")], cap: 150)
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let selection = FetchSupport.selection("2010-01-01", "2021-01-01")
        var options = FetchSupport.options(standIn)
        options.overlap = 0

        let first = try await Fetcher.run(selection: selection, options: options, workspace: workspace, logger: FetchSupport.logger)
        #expect(first.mode == "full")
        let mark = try #require(first.highWaterMark)
        let before = try await standIn.catalog("starttime=2010-01-01&endtime=2021-01-01")
        let atTheMark = Set(before.filter { $0.updated >= mark }.map(\.id))
        #expect(atTheMark.count >= 1)

        // Changes in the service: revisions, a preferred-id change, a deletion, late arrivals.
        let ids = before.map(\.id).sorted()
        _ = try await standIn.update(ids[0], ["mag": 7.1])
        _ = try await standIn.update(ids[1], ["place": "somewhere else"])
        let renamed = try await standIn.changePreferredId(ids[2], to: "us7000test")
        _ = try await standIn.delete(ids[3])
        var late1 = before[10], late2 = before[20]
        late1.id = "us7000late1"; late1.ids = ["us7000late1"]; late1.updated = Int64(Date().timeIntervalSince1970 * 1000)
        late2.id = "us7000late2"; late2.ids = ["us7000late2"]; late2.updated = late1.updated
        try await standIn.add([late1, late2])
        try await standIn.resetRequests()

        let second = try await Fetcher.run(selection: selection, options: options, workspace: workspace, logger: FetchSupport.logger)

        #expect(second.mode == "incremental")
        let log = try await standIn.requests()
        #expect(log.count == 2, "one count and one query, not the whole catalog again")
        #expect(log.allSatisfy { $0.target.contains("updatedafter=") && $0.target.contains("includedeleted=true") && $0.target.contains("starttime=2010-01-01") })
        let newPages = try FetchSupport.archivedPages(workspace).filter { $0.page.sequence > Int64(first.windowsFetched) }
        let fetched = newPages.flatMap(\.events)
        let changed: Set<String> = [ids[0], ids[1], renamed.id, ids[3], "us7000late1", "us7000late2"]
        #expect(Set(fetched.map(\.id)) == changed.union(atTheMark.subtracting([ids[0], ids[1], ids[2], ids[3]])))
        #expect(fetched.first { $0.id == ids[3] }?.status == "deleted")
        #expect(fetched.first { $0.id == "us7000test" }?.ids.contains(ids[2]) == true)
        #expect(fetched.first { $0.id == ids[0] }?.mag == 7.1)
        #expect((second.highWaterMark ?? 0) > mark)
    }
}

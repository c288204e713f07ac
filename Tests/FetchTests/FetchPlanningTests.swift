import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// Counting, planning under the cap, and fetching exactly the selection.
@Suite struct FetchPlanningTests {
    @Test func multiYearSelectionArrivesExactlyAndUnderTheCap() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m6-1973-2023.csv.gz")], cap: 500)
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let selection = FetchSupport.selection("1973-01-01", "2024-01-01")

        let summary = try await Fetcher.run(selection: selection, options: FetchSupport.options(standIn), workspace: workspace,
                                            logger: FetchSupport.logger)

        let expected = try await FetchSupport.servedIDs(standIn, "starttime=1973-01-01&endtime=2024-01-01")
        #expect(expected.count > 7000)
        let pages = try FetchSupport.archivedPages(workspace)
        #expect(try FetchSupport.archivedIDs(workspace) == expected)
        #expect(pages.count > expected.count / 500)
        for (page, events) in pages {
            #expect(events.count <= 500)
            #expect(page.eventCount == events.count)
            let body = try Gzip.decompress(Data(contentsOf: page.file))
            #expect(SHA256.hex(body) == page.sha256)
        }
        // Requests: the counts of the plan plus one query per window, nothing else.
        let log = try await standIn.requests()
        #expect(log.allSatisfy { $0.status == 200 })
        #expect(log.filter { $0.endpoint == "count" }.count == summary.countRequests)
        #expect(log.filter { $0.endpoint == "query" }.count == pages.count)
        #expect(summary.queryRequests == pages.count)
        #expect(summary.windowsFetched == pages.count)
        #expect(summary.events == pages.map(\.events.count).reduce(0, +))
        #expect(summary.mode == "full")
        #expect(log.filter { $0.endpoint == "query" }.allSatisfy { $0.target.contains("orderby=time-asc") && $0.target.contains("jsonerror=true") })
        // What `status` will show.
        let status = try #require(try FetchStatus.read(workspace))
        #expect(status.lastRun?.state == "done")
        #expect(status.pages == pages.count)
        #expect(status.archivedEvents == summary.events)
        #expect(status.highWaterMark == summary.highWaterMark)
        #expect(status.endpoints.map(\.endpoint) == ["count", "query"])
        #expect(status.endpoints.first { $0.endpoint == "query" }?.requests == pages.count)
        #expect(status.endpoints.allSatisfy { $0.failures == 0 && $0.p95Milliseconds >= $0.meanMilliseconds / 2 })
    }

    @Test func antimeridianBoxIsSentPastOneEighty() async throws {
        // Tonga, Fiji and Kermadec quakes straddle the antimeridian.
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m6-1973-2023.csv.gz")])
        let directory = TemporaryDirectory()
        var selection = FetchSupport.selection("1973-01-01", "2024-01-01")
        selection.bbox = try BoundingBox(parsing: "170,-60,-170,0")

        _ = try await Fetcher.run(selection: selection, options: FetchSupport.options(standIn), workspace: Workspace(root: directory.url),
                                  logger: FetchSupport.logger)

        let log = try await standIn.requests()
        #expect(log.allSatisfy { $0.target.contains("minlongitude=170") && $0.target.contains("maxlongitude=190") })
        let expected = try await FetchSupport.servedIDs(
            standIn, "starttime=1973-01-01&endtime=2024-01-01&minlatitude=-60&maxlatitude=0&minlongitude=170&maxlongitude=190")
        #expect(expected.count > 100)
        let archived = try FetchSupport.archivedIDs(Workspace(root: directory.url))
        #expect(archived == expected)
        let events = try FetchSupport.archivedPages(Workspace(root: directory.url)).flatMap(\.events)
        #expect(events.allSatisfy { ($0.longitude ?? 0) >= 170 || ($0.longitude ?? 0) <= -170 })
        #expect(events.contains { ($0.longitude ?? 0) > 0 } && events.contains { ($0.longitude ?? 0) < 0 })
    }

    @Test func emptySelectionCostsOneCount() async throws {
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")])
        let directory = TemporaryDirectory()
        let summary = try await Fetcher.run(selection: FetchSupport.selection("1900-01-01", "1900-02-01"),
                                            options: FetchSupport.options(standIn), workspace: Workspace(root: directory.url),
                                            logger: FetchSupport.logger)
        #expect(summary.countRequests == 1 && summary.queryRequests == 0 && summary.events == 0)
        #expect(try await standIn.requests().count == 1)
    }
}

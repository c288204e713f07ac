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

        let said = RecordedLog(label: "fetch-test")
        let summary = try await Fetcher.run(selection: selection, options: FetchSupport.options(standIn), workspace: workspace,
                                            logger: said.logger)

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
        // Requests: one count, one query per page, and one over-cap answer (then a split, no count) for each
        // window where quakes came faster than the average rate; a page as big as the cap is counted
        // again. Counting every window first took 45 requests here.
        let log = try await standIn.requests()
        let splits = said.messages.filter { $0.contains("over the cap of 500") && $0.contains("splitting it") }.count
        let recounts = said.messages.filter { $0.contains("recount says") }.count
        #expect(log.allSatisfy { $0.status == 200 })
        #expect(said.messages.contains { $0.hasPrefix("plan: \(Format.count(expected.count)) events counted, over the cap of 500") && $0.contains("of equal time") }, "--verbose says why the plan")
        #expect(splits > 0, "M6 quakes do not come at an even rate over 50 years")
        #expect(log.filter { $0.endpoint == "count" }.count == 1 + recounts && summary.countRequests == 1 + recounts)
        #expect(log.filter { $0.endpoint == "query" }.count == pages.count + splits)
        #expect(summary.queryRequests == pages.count + splits)
        let fewestPossible = (expected.count + 499) / 500
        #expect(log.count <= fewestPossible * 2, "\(log.count) requests where \(fewestPossible) queries is the least")
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
        #expect(status.endpoints.first { $0.endpoint == "query" }?.requests == pages.count + splits)
        #expect(status.endpoints.allSatisfy { $0.p95Milliseconds >= $0.meanMilliseconds / 2 })
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

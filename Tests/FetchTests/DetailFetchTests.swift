import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// Quakes' details (issue 47): which quakes, when, how many a run, through the same gate and
/// journal as the pages, and what a service in trouble does to them.
@Suite struct DetailFetchTests {
    static let sample = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")

    static func options(_ standIn: StandInProcess, perRun: Int = 200, policy: DetailPolicy = .significant) -> FetchOptions {
        var options = FetchSupport.options(standIn)
        options.details = policy
        options.detailsPerRun = perRun
        return options
    }

    static func fetch(_ standIn: StandInProcess, _ workspace: Workspace, _ options: FetchOptions,
                      from start: String = "2010-01-01", to end: String = "2021-01-01") async throws -> FetchSummary {
        try await Fetcher.run(selection: FetchSupport.selection(start, end), options: options, workspace: workspace, logger: FetchSupport.log.logger)
    }

    /// The event ids of the detail requests in the stand-in's log.
    static func detailRequests(_ standIn: StandInProcess) async throws -> [String] {
        try await standIn.requests().filter { $0.endpoint == "detail" }.compactMap { request in
            URLComponents(string: request.target)?.queryItems?.first { $0.name == "eventid" }?.value
        }
    }

    /// USGS's significance, read here from the served events: sig ≥ 600, or a PAGER alert.
    static func significant(_ events: [QuakeEvent]) -> [QuakeEvent] {
        events.filter { !$0.isDeleted && (($0.sig ?? 0) >= 600 || $0.alert != nil) }
    }

    @Test func theBiggestSignificantQuakesComeFirstAndTheRestInLaterRuns() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000)
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let served = Self.significant(try await standIn.catalog("starttime=2010-01-01&endtime=2021-01-01"))
        #expect(served.count > 100, "the sample has many significant quakes: \(served.count)")
        let biggestFirst = served.sorted { ($0.mag ?? -9, $0.sig ?? -1, $1.id) > ($1.mag ?? -9, $1.sig ?? -1, $0.id) }.map(\.id)

        let first = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 5))
        #expect(first.details.requests == 5 && first.details.fetched == 5)
        #expect(first.details.waiting == served.count - 5)
        #expect(Set(try Archive.details(in: workspace).map(\.eventID)) == Set(biggestFirst.prefix(5)))
        try await standIn.resetRequests()

        let second = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 5))
        #expect(second.mode == "incremental")
        #expect(Set(try await Self.detailRequests(standIn)) == Set(biggestFirst.dropFirst(5).prefix(5)), "the next five, biggest first")
        #expect(second.details.waiting == served.count - 10)
        #expect(second.line.contains("details of 5 quakes"), "\(second.line)")
        // Every detail request is in the journal's statistics.
        let status = try #require(try FetchStatus.read(workspace))
        #expect(status.endpoints.first { $0.endpoint == "detail" }?.requests == 10)
        #expect(status.detailsArchived == 10 && status.detailsWaiting == served.count - 10, "\(status)")
    }

    @Test func nothingChangedAsksNothingAndAnUpdateAsksAgain() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000)
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        var options = Self.options(standIn, perRun: 1000)
        options.overlap = 0
        let first = try await Self.fetch(standIn, workspace, options)
        let served = try await standIn.catalog("starttime=2010-01-01&endtime=2021-01-01")
        #expect(first.details.fetched == Self.significant(served).count)
        try await standIn.resetRequests()

        let quiet = try await Self.fetch(standIn, workspace, options)
        #expect(quiet.details.requests == 0 && quiet.details.contentRequests == 0)
        #expect(try await Self.detailRequests(standIn).isEmpty, "an incremental run with nothing changed makes no detail request")

        // A significant quake whose `updated` moves is asked for again; one that becomes significant, for the first time.
        let known = try #require(Self.significant(served).first)
        let small = try #require(served.first { ($0.sig ?? 0) < 600 && $0.alert == nil && !$0.isDeleted })
        _ = try await standIn.update(known.id, ["felt": 4321])
        _ = try await standIn.update(small.id, ["sig": 700])
        try await standIn.resetRequests()
        let changed = try await Self.fetch(standIn, workspace, options)
        #expect(Set(try await Self.detailRequests(standIn)) == [known.id, small.id])
        #expect(changed.details.fetched == 2)
        let entries = try Archive.details(in: workspace).filter { $0.eventID == known.id }
        #expect(entries.count == 2 && entries[1].updated > entries[0].updated)
    }

    @Test(arguments: [DetailPolicy.none, .all])
    func thePolicyDecidesWhichQuakes(policy: DetailPolicy) async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000)
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let summary = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 1000, policy: policy), from: "2019-06-01", to: "2020-01-01")
        let served = try await standIn.catalog("starttime=2019-06-01&endtime=2020-01-01")
        #expect(summary.details.fetched == (policy == .all ? served.count : 0))
        #expect(Set(try await Self.detailRequests(standIn)) == (policy == .all ? Set(served.map(\.id)) : []))
    }

    @Test func detailRequestsWaitAtTheSameGateAsThePages() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000)
        let directory = TemporaryDirectory()
        var options = Self.options(standIn, perRun: 6)
        // One count, one query and six details: eight requests, at four per window of 1.5 s.
        (options.requestBudget, options.budgetWindow) = (4, 1.5)
        let summary = try await Self.fetch(standIn, Workspace(root: directory.url), options)
        #expect(summary.countRequests + summary.queryRequests + summary.details.requests >= 8, "retries count too")
        #expect(summary.details.fetched == 6)
        #expect(summary.duration >= 1.5, "the budget held the details back: \(summary.duration) s")
    }

    @Test func aServiceInTroubleLeavesTheDetailsForTheNextRun() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000, faults: ["503,every=1,on=detail"])
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let troubled = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 3))
        #expect(troubled.details.fetched == 0 && troubled.details.waiting > 0, "the run stands, the details wait")
        #expect(troubled.windowsFetched == 1)
        #expect(FetchSupport.log.messages.contains { $0.contains("details: the service is in trouble") })
        try await standIn.clearFaults()
        let later = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 3))
        #expect(later.details.fetched == 3)
    }

    @Test func aDetailTheServiceDoesNotHaveIsNotAskedForAgainUntilTheQuakeChanges() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 1000, faults: ["proxy=404,on=detail,next=1"])
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let first = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 2))
        #expect(first.details.missing == 1 && first.details.fetched == 1)
        let refused = try #require(try await standIn.requests().first { $0.fault == "proxy" })
        let missing = try #require(URLComponents(string: refused.target)?.queryItems?.first { $0.name == "eventid" }?.value)
        try await standIn.resetRequests()
        _ = try await Self.fetch(standIn, workspace, Self.options(standIn, perRun: 2))
        #expect(!(try await Self.detailRequests(standIn)).contains(missing))
    }
}

import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// Every fault the service can throw at a client: survived with nothing lost, or reported clearly.
@Suite struct FetchFaultTests {
    static let sample = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")
    static let range = ("2010-01-01", "2021-01-01")

    @Test(arguments: [
        ("503,next=2", "503"),
        ("429=1,next=1", "429"),
        ("stall=4,next=1", "stall"),
        ("disconnect,next=2", "disconnect"),
        ("truncate,next=2", "truncate"),
        ("proxy,next=2", "proxy"),
        ("wrongcount=-200,next=1", "wrongcount"),
        ("503,every=3", "503"),
        ("disconnect,rate=0.3,seed=6", "disconnect"),
    ])
    func faultIsSurvivedWithNothingLost(spec: String, kind: String) async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 150, faults: [spec])
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let started = Date()
        let said = RecordedLog(label: "fetch-test")

        let summary = try await Fetcher.run(selection: FetchSupport.selection(Self.range.0, Self.range.1),
                                            options: FetchSupport.options(standIn, readTimeout: 1), workspace: workspace,
                                            logger: said.logger)

        // A stalled request is logged when the stand-in finally answers it, after the client gave up on it.
        let log = try await Self.log(of: standIn, reaching: summary.countRequests + summary.queryRequests)
        #expect(log.contains { $0.fault == kind }, "the fault \(spec) never fired")
        let expected = try await FetchSupport.servedIDs(standIn, "starttime=\(Self.range.0)&endtime=\(Self.range.1)")
        #expect(expected.count == 456)
        #expect(try FetchSupport.archivedIDs(workspace) == expected)
        #expect(try FetchSupport.archivedPages(workspace).allSatisfy { $0.events.count <= 150 })
        #expect(summary.countRequests + summary.queryRequests == log.count)
        if summary.failedAttempts > 0 {
            #expect(said.messages.contains { $0.contains("attempt") && $0.contains("failed") }, "each retry is logged")
        }
        if kind == "429" { #expect(Date().timeIntervalSince(started) >= 1, "Retry-After: 1 was not honoured") }
        // A count far too low plans too few windows: their over-cap answers correct the plan.
        if kind == "wrongcount" { #expect(said.messages.contains { $0.contains("over the cap of 150 (more than its share") }) }
    }

    @Test func aPageThatDisagreesWithItsWindowsCountIsCountedAgain() async throws {
        // All 456 events fit one window; its count says 461 (the catalog moved between count and query).
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 500, faults: ["wrongcount=5,next=1"])
        let directory = TemporaryDirectory()
        let said = RecordedLog(label: "fetch-test")
        let summary = try await Fetcher.run(selection: FetchSupport.selection(Self.range.0, Self.range.1), options: FetchSupport.options(standIn),
                                            workspace: Workspace(root: directory.url), logger: said.logger)
        #expect(summary.countRequests == 2 && summary.queryRequests == 1)
        #expect(said.messages.contains { $0.contains("page has 456 events, count said 461, recount says 456") })
        let expected = try await FetchSupport.servedIDs(standIn, "starttime=\(Self.range.0)&endtime=\(Self.range.1)")
        #expect(try FetchSupport.archivedIDs(Workspace(root: directory.url)) == expected)
    }

    @Test func aWindowThatKeepsFailingIsRetriedNotSplitAndResumedLater() async throws {
        // The first four query attempts all fail: the window's retries run out, the run stops
        // with exit 75 (splitting is for over-cap counts only), and the next run fetches it whole.
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 500, faults: ["503,next=4,on=query"])
        let directory = TemporaryDirectory()
        var options = FetchSupport.options(standIn)
        options.maxAttempts = 4
        let selection = FetchSupport.selection(Self.range.0, Self.range.1)
        await #expect(throws: (any Error).self) {
            try await Fetcher.run(selection: selection, options: options, workspace: Workspace(root: directory.url), logger: FetchSupport.logger)
        }
        let summary = try await Fetcher.run(selection: selection, options: options, workspace: Workspace(root: directory.url),
                                            logger: FetchSupport.logger)
        let queries = try await standIn.requests().filter { $0.endpoint == "query" }
        #expect(queries.prefix(4).allSatisfy { $0.fault == "503" })
        #expect(Set(queries.map(\.target)).count == 1, "the same window was tried until it answered")
        #expect(queries.dropFirst(4).allSatisfy { $0.status == 200 })
        #expect(summary.resumed)
        let expected = try await FetchSupport.servedIDs(standIn, "starttime=\(Self.range.0)&endtime=\(Self.range.1)")
        #expect(try FetchSupport.archivedIDs(Workspace(root: directory.url)) == expected)
    }

    /// The request log once it holds `count` requests (or after 20 s, whatever it holds then).
    static func log(of standIn: StandInProcess, reaching count: Int) async throws -> [StandInProcess.Request] {
        try await latest({ try await standIn.requests() }, until: { $0.count >= count }, timeout: 20)
    }

    /// A feature the request did not ask for (here: origin time 1970, outside every window) is
    /// kept, archived and counted, and the run says so (issue 13: decided, documented, tested).
    @Test func anEventOutsideTheWindowAskedForIsKeptAndCounted() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 150, faults: ["outside,next=1"])
        let directory = TemporaryDirectory()
        let workspace = Workspace(root: directory.url)
        let summary = try await Fetcher.run(selection: FetchSupport.selection(Self.range.0, Self.range.1),
                                            options: FetchSupport.options(standIn), workspace: workspace, logger: FetchSupport.logger)
        #expect(summary.outsideSelection == 1)
        #expect(summary.line.contains("1 event outside what was asked (kept)"), "\(summary.line)")
        let archived = try FetchSupport.archivedPages(workspace).flatMap(\.events)
        #expect(archived.count == 456)
        #expect(archived.filter { $0.time == 0 }.count == 1)
    }

    @Test func errorInsideAnOKAnswerStopsTheRunWithTheServiceMessage() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 150, faults: ["error200,next=1,on=query"])
        let directory = TemporaryDirectory()
        do {
            _ = try await Fetcher.run(selection: FetchSupport.selection(Self.range.0, Self.range.1),
                                      options: FetchSupport.options(standIn), workspace: Workspace(root: directory.url),
                                      logger: FetchSupport.logger)
            Issue.record("the run should have stopped")
        } catch let error as ExitStatusProviding {
            #expect(error.kind == .refused && error.exitStatus == .failure)
            #expect("\(error)".contains("status 400"))
        }
        // The refused window was not archived; nothing else was retried into a duplicate.
        let log = try await standIn.requests()
        #expect(log.filter { $0.fault == "error200" }.count == 1)
        #expect(try Archive.pages(in: Workspace(root: directory.url)).count < log.filter { $0.endpoint == "query" }.count)
    }

    @Test func serviceThatStaysDownIsATemporaryFailure() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], faults: ["503,every=1"])
        let directory = TemporaryDirectory()
        do {
            _ = try await Fetcher.run(selection: FetchSupport.selection(Self.range.0, Self.range.1),
                                      options: FetchSupport.options(standIn), workspace: Workspace(root: directory.url),
                                      logger: FetchSupport.logger)
            Issue.record("the run should have failed")
        } catch let error as ExitStatusProviding {
            #expect(error.kind == .unavailable && error.exitStatus == .temporaryFailure)
            #expect("\(error)".contains("503"))
        }
        #expect(try await standIn.requests().count == FetchSupport.options(standIn).maxAttempts)
    }
}

import Foundation
import QuakeCommon
import QuakeFetch
import Testing
import TestSupport

/// A hostile or broken service (issue 13): bodies without end, huge bodies, drips, gzip bombs,
/// absurd counts, a Retry-After of a day, a query that always fails. Every run ends by itself
/// with exit 75 and a message naming the limit, having made no window plan out of nonsense.
/// The limits are set small here so the suite stays quick; `Scripts/hostile` runs the same
/// faults at the default options and reports time and memory.
@Suite struct HostileServiceTests {
    struct Case: Sendable, CustomStringConvertible {
        var fault: String
        var message: String
        var description: String { fault }
    }

    static let cases: [Case] = [
        Case(fault: "endless,every=1", message: "body limit"),
        Case(fault: "big=64,every=1", message: "body limit"),
        Case(fault: "drip=64,every=1", message: "request deadline"),
        Case(fault: "gzipbomb=64,every=1", message: "limit"),
        Case(fault: "badcount=1e12,every=1", message: "no plausible count"),
        Case(fault: "badcount=-1,every=1", message: "no plausible count"),
        Case(fault: "badcount=\"many\",every=1", message: "no plausible count"),
        Case(fault: "badcap=0,every=1", message: "no plausible maxAllowed"),
        Case(fault: "badcap=-5,every=1", message: "no plausible maxAllowed"),
        Case(fault: "bigheader,every=1", message: "headers are too long"),
        Case(fault: "manyheaders=5000,every=1", message: "more than 256 header lines"),
        Case(fault: "429=86400,every=1", message: "--max-retry-after"),
        Case(fault: "503,every=1,on=query", message: "status 503"),
    ]

    @Test(arguments: cases)
    func hostileServiceEndsTheRunWithExit75(_ c: Case) async throws {
        let standIn = try StandInProcess(catalogs: [FetchFaultTests.sample], cap: 500, faults: [c.fault])
        let directory = TemporaryDirectory()
        var options = FetchSupport.options(standIn)
        // Short only where the deadline is what is tried (a drip): elsewhere a loaded machine's
        // slow answer must not end the run for another reason than the one under test.
        options.requestDeadline = c.message == "request deadline" ? 3 : 60
        options.maxBodyBytes = 2 << 20
        var failure: (any Error)?
        do {
            _ = try await Fetcher.run(selection: FetchSupport.selection(FetchFaultTests.range.0, FetchFaultTests.range.1),
                                      options: options, workspace: Workspace(root: directory.url), logger: FetchSupport.logger)
        } catch {
            failure = error
        }
        let error = try #require(failure as? any ExitStatusProviding, "\(c.fault): the run should have failed")
        #expect(error.kind == .unavailable && error.exitStatus == .temporaryFailure, "\(c.fault): \(error)")
        #expect("\(error)".contains(c.message), "\(c.fault): \(error)")
        let requests = try await standIn.requests()
        #expect(requests.count <= 1 + options.maxAttempts, "\(c.fault): \(requests.count) requests")
        let queries = requests.filter { $0.endpoint == "query" }
        #expect(Set(queries.map(\.target)).count <= 1, "\(c.fault): a failing window is retried, not split")
    }
}

import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// Every fault kind happens as specified, on the requests its trigger names, and is logged.
@Suite struct FaultTests {
    static let file = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")
    static let query = "format=geojson&starttime=2015-01-01&endtime=2016-01-01"

    func start(_ faults: [String] = []) throws -> StandInProcess {
        try StandInProcess(catalogs: [Self.file], now: "2021-01-01T00:00:00Z", faults: faults)
    }

    @Test func unavailableThenTrue() async throws {
        let standIn = try start(["503,next=2"])
        for _ in 0..<2 {
            let (data, response) = try await standIn.get("query", Self.query)
            #expect(response.statusCode == 503)
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("Error 503: Service Unavailable\n\n"))
        }
        #expect(try await standIn.get("query", Self.query).1.statusCode == 200)
        let log = try await standIn.requests()
        #expect(log.map(\.fault) == ["503", "503", nil])
        #expect(log.map(\.status) == [503, 503, 200])
    }

    @Test func throttledWithRetryAfterEveryThird() async throws {
        let standIn = try start(["429=7,every=3"])
        var statuses: [Int] = []
        for _ in 0..<6 {
            let (_, response) = try await standIn.get("count", "starttime=2015-01-01")
            statuses.append(response.statusCode)
            if response.statusCode == 429 { #expect(response.value(forHTTPHeaderField: "Retry-After") == "7") }
        }
        #expect(statuses == [200, 200, 429, 200, 200, 429])
        // version is not a data method: never faulted by default.
        #expect(try await standIn.get("version").1.statusCode == 200)
    }

    @Test func stallOutlastsTheClientTimeout() async throws {
        let standIn = try start()
        try await standIn.setFaults(["stall=3,next=1"])
        #expect(throws: RawHTTP.Failure.self) { try RawHTTP.get(standIn.url("query", Self.query), timeout: 0.5) }
        #expect(try RawHTTP.get(standIn.url("query", Self.query), timeout: 10).status == 200)
    }

    @Test func disconnectMidBody() async throws {
        let standIn = try start(["disconnect,next=1,on=query"])
        #expect(try await standIn.get("count", "starttime=2015-01-01").1.statusCode == 200)
        let broken = try RawHTTP.get(standIn.url("query", Self.query))
        #expect(broken.status == 200 && broken.cutShort)
        let whole = try RawHTTP.get(standIn.url("query", Self.query))
        #expect(!whole.cutShort && whole.body.count == broken.contentLength)
        #expect(broken.body == whole.body.prefix(broken.body.count) && broken.body.count == whole.body.count / 2)
        #expect(try await standIn.requests().map(\.fault) == [nil, "disconnect", nil])
    }

    @Test func truncatedJSONWithMatchingLength() async throws {
        let standIn = try start(["truncate"])
        let cut = try RawHTTP.get(standIn.url("query", Self.query))
        #expect(cut.status == 200 && !cut.cutShort && cut.contentLength == cut.body.count)
        let page = CatalogFile.read(cut.body, source: "truncated")
        #expect(page.problem?.contains("truncated") == true)
        let whole = try RawHTTP.get(standIn.url("query", Self.query))
        #expect(CatalogFile.read(whole.body, source: "whole").problem == nil)
        #expect(whole.body.prefix(cut.body.count) == cut.body)
    }

    @Test func errorInsideA200() async throws {
        let standIn = try start(["error200,next=1"])
        let (data, response) = try await standIn.get("query", Self.query)
        #expect(response.statusCode == 200)
        #expect(CatalogFile.read(data, source: "error200").metadata?.status == 400)
    }

    @Test func proxyPage() async throws {
        let standIn = try start(["proxy,next=1"])
        let (data, response) = try await standIn.get("query", Self.query)
        #expect(response.statusCode == 502)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/html")
        #expect(String(decoding: data, as: UTF8.self).contains("<h1>502 Bad Gateway</h1>"))
    }

    @Test func wrongCountOnceThenTrue() async throws {
        let standIn = try start(["wrongcount=-3"])
        let (query, _) = try await standIn.get("query", Self.query)
        let truth = Expected.ids(query).count
        let (wrong, _) = try await standIn.get("count", Self.query)
        let (right, _) = try await standIn.get("count", Self.query)
        #expect(String(decoding: wrong, as: UTF8.self) == "{\"count\":\(truth - 3),\"maxAllowed\":20000}")
        #expect(String(decoding: right, as: UTF8.self) == "{\"count\":\(truth),\"maxAllowed\":20000}")
        #expect(try await standIn.requests().map(\.fault) == [nil, "wrongcount", nil])
    }

    @Test func damagedFeatureInAnOtherwiseSoundPage() async throws {
        let standIn = try start(["damage,next=1"])
        let (damaged, response) = try await standIn.get("query", Self.query)
        let (whole, _) = try await standIn.get("query", Self.query)
        #expect(response.statusCode == 200)
        let bad = CatalogFile.read(damaged, source: "damaged"), good = CatalogFile.read(whole, source: "whole")
        #expect(bad.problem == nil && good.problem == nil)
        #expect(bad.rejects.count == 1 && bad.rejects.first?.reason.contains("latitude 91") == true)
        #expect(bad.events.count + 1 == good.events.count)
        #expect(Set(bad.events.map(\.id)).isSubset(of: Set(good.events.map(\.id))))
        #expect(try await standIn.requests().map(\.fault) == ["damage", nil])
    }

    @Test func seededRateRepeatsExactly() async throws {
        let standIn = try start()
        var patterns: [[Int]] = []
        for _ in 0..<2 {
            try await standIn.setFaults(["503,rate=0.3,seed=42"])
            var pattern: [Int] = []
            for _ in 0..<30 { pattern.append(try await standIn.get("count", "starttime=2015-01-01").1.statusCode) }
            patterns.append(pattern)
        }
        #expect(patterns[0] == patterns[1])
        #expect(patterns[0].contains(503) && patterns[0].contains(200))
        try await standIn.clearFaults()
        try await standIn.resetRequests()
        #expect(try await standIn.get("count", "starttime=2015-01-01").1.statusCode == 200)
        #expect(try await standIn.requests().count == 1)
    }

    @Test func badSpecsAreRefused() async throws {
        let standIn = try start()
        await #expect(throws: StandInProcess.Failure.self) { try await standIn.setFaults(["teapot"]) }
        await #expect(throws: StandInProcess.Failure.self) { try await standIn.setFaults(["503,rate=2"]) }
        #expect(throws: StandInProcess.Failure.self) { try StandInProcess(faults: ["stall=x"]) }
    }
}

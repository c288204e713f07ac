import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// The catalog changing under a client: updates, preferred-id changes, deletions, additions,
/// the clock, and the cap; each seen through the FDSN answers a syncing client would read.
@Suite struct AdminTests {
    static let file = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")
    static let now = "2021-01-01T00:00:00Z"

    func start(cap: Int? = nil) throws -> StandInProcess {
        try StandInProcess(catalogs: [Self.file], cap: cap, now: Self.now)
    }

    func feature(_ standIn: StandInProcess, _ id: String, _ extra: String = "") async throws -> (Int, QuakeEvent?) {
        let (data, response) = try await standIn.get("query", "format=geojson&eventid=\(id)" + extra)
        return (response.statusCode, response.statusCode == 200 ? CatalogFile.read(data, source: id).events.first : nil)
    }

    @Test func theDumpIsExactlyTheLoadedFile() async throws {
        let standIn = try start()
        let dumped = try await standIn.catalog()
        let file = CatalogFile.read(Self.file).events
        #expect(dumped.count == 456)
        #expect(dumped.sorted { $0.id < $1.id } == file.sorted { $0.id < $1.id })
    }

    @Test func updateBumpsUpdatedAndShowsToUpdatedAfter() async throws {
        let standIn = try start()
        let original = try #require(CatalogFile.read(Self.file).events.first)
        let updated = try await standIn.update(original.id, ["mag": 6.1, "place": "somewhere else", "felt": nil, "depth": 12.5])
        #expect(updated.mag == 6.1 && updated.place == "somewhere else" && updated.felt == nil && updated.depthKm == 12.5)
        #expect(updated.updated == max(Expected.ms(Self.now), original.updated + 1))
        var expected = original
        (expected.mag, expected.place, expected.felt, expected.depthKm, expected.updated) = (6.1, "somewhere else", nil, 12.5, updated.updated)
        expected.detail = nil  // a detail answer (eventid=) names no detail of itself, as the service's
        #expect(try await feature(standIn, original.id).1 == expected)
        let (data, _) = try await standIn.get("query", "format=geojson&starttime=1900-01-01&updatedafter=\(Self.now)")
        #expect(Expected.ids(data) == [original.id])
        // A second update at the same service time still moves `updated` forward.
        let again = try await standIn.update(original.id, ["mag": 6.2])
        #expect(again.updated == updated.updated + 1)
    }

    @Test func preferredIdChangeKeepsTheOldIdInIds() async throws {
        let standIn = try start()
        let original = try #require(CatalogFile.read(Self.file).events.first { $0.ids.count == 1 })
        let renamed = try await standIn.changePreferredId(original.id, to: "us7000zzzz")
        #expect(renamed.id == "us7000zzzz" && renamed.net == "us" && renamed.code == "7000zzzz")
        #expect(renamed.ids == ["us7000zzzz", original.id])
        #expect(renamed.updated > original.updated)
        #expect(try await feature(standIn, original.id).1?.id == "us7000zzzz")
        let (window, _) = try await standIn.get("query", "format=geojson&starttime=1900-01-01")
        let ids = Expected.ids(window)
        #expect(ids.contains("us7000zzzz") && !ids.contains(original.id) && ids.count == 456)
        let other = try #require(CatalogFile.read(Self.file).events.last)
        await #expect(throws: StandInProcess.Failure.self) { try await standIn.changePreferredId(other.id, to: "us7000zzzz") }
    }

    @Test func deletedEventsShowOnlyWhenAsked() async throws {
        let standIn = try start()
        let victim = try #require(CatalogFile.read(Self.file).events.first)
        let deleted = try await standIn.delete(victim.id)
        #expect(deleted.status == "deleted" && deleted.updated == max(Expected.ms(Self.now), victim.updated + 1))
        let all = "format=geojson&starttime=1900-01-01"
        #expect(Expected.ids(try await standIn.get("query", all).0).count == 455)
        let withDeleted = try await standIn.get("query", all + "&includedeleted=true").0
        #expect(Expected.ids(withDeleted).count == 456)
        #expect(Expected.ids(try await standIn.get("query", all + "&includedeleted=only").0) == [victim.id])
        #expect(try await feature(standIn, victim.id).0 == 409)
        #expect(try await feature(standIn, victim.id, "&includedeleted=true").1?.status == "deleted")
        #expect(String(decoding: try await standIn.get("count", "starttime=1900-01-01&includedeleted=true&format=geojson").0, as: UTF8.self)
            == "{\"count\":456,\"maxAllowed\":20000}")
        #expect(try await standIn.catalog("includedeleted=only").map(\.id) == [victim.id])
    }

    @Test func addedEventsAreServed() async throws {
        let standIn = try start()
        var late = QuakeEvent(id: "ci99999999", updated: Expected.ms(Self.now), time: Expected.ms("2015-05-05T05:05:05Z"),
                              longitude: -117, latitude: 34)
        (late.mag, late.net, late.code, late.sources, late.types, late.status, late.eventType, late.tsunami) = (4.8, "ci", "99999999", ["ci"], ["origin"], "reviewed", "earthquake", 0)
        try await standIn.add([late])
        #expect(try await feature(standIn, "ci99999999").1 == late)
        #expect(try await standIn.catalog().count == 457)
    }

    @Test func theClockMovesTheDefaultWindow() async throws {
        let standIn = try start()
        let events = CatalogFile.read(Self.file).events
        try await standIn.setClock("2019-07-10T00:00:00Z")
        let since = Expected.ms("2019-06-10T00:00:00Z")
        let (count, _) = try await standIn.get("count")
        #expect(String(decoding: count, as: UTF8.self) == String(events.filter { $0.time! >= since }.count))
        try await standIn.advanceClock(by: "30d")
        let (later, _) = try await standIn.get("count", "format=geojson")
        let laterSince = since + 30 * 86_400_000
        #expect(String(decoding: later, as: UTF8.self).hasPrefix("{\"count\":\(events.filter { $0.time! >= laterSince }.count),"))
    }

    @Test func theCapRefusesBigQueriesButCountsThem() async throws {
        let standIn = try start(cap: 100)
        let (text, response) = try await standIn.get("query", "format=geojson&starttime=1900-01-01")
        #expect(response.statusCode == 400)
        #expect(String(decoding: text, as: UTF8.self).contains("\n\n456 matching events exceeds search limit of 100. Modify the search to match fewer events.\n\n"))
        let (json, jsonResponse) = try await standIn.get("query", "format=geojson&jsonerror=true&starttime=1900-01-01")
        #expect(jsonResponse.statusCode == 200)
        #expect(CatalogFile.read(json, source: "cap").metadata?.error == "456 matching events exceeds search limit of 100. Modify the search to match fewer events.")
        let (count, _) = try await standIn.get("count", "format=geojson&starttime=1900-01-01")
        #expect(String(decoding: count, as: UTF8.self) == "{\"count\":456,\"maxAllowed\":100,\"error\":\"456 matching events exceeds search limit of 100. A query using these search parameters would fail. Modify the search to match fewer events.\"}")
        #expect(String(decoding: try await standIn.get("count", "starttime=1900-01-01").0, as: UTF8.self) == "456")
        // With a limit the first rows come back; the limit itself is bounded by the cap.
        let (limited, _) = try await standIn.get("query", "format=geojson&starttime=1900-01-01&limit=100")
        #expect(Expected.ids(limited).count == 100)
        #expect(try await standIn.get("query", "format=geojson&starttime=1900-01-01&limit=101").1.statusCode == 400)
        // At the cap exactly, the query is fine.
        let hundredth = CatalogFile.read(Self.file).events.sorted { ($0.time!, $1.id) > ($1.time!, $0.id) }[99]
        let (atCap, atCapResponse) = try await standIn.get("query", "format=geojson&starttime=\(ISOTime.formatParameter(milliseconds: hundredth.time!))")
        #expect(atCapResponse.statusCode == 200 && Expected.ids(atCap).count == 100)
    }

    @Test func badCatalogFilesAreNamed() throws {
        #expect {
            try StandInProcess(catalogs: [TestData.usgs("no-such-file.geojson")])
        } throws: { error in
            "\(error)".contains("no-such-file.geojson")
        }
    }
}

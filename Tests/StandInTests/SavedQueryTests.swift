import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// The saved real answers, asked again: the stand-in, serving such a file beside files
/// outside its window, answers the file's own `metadata.url` with exactly the file's
/// events, in the file's (the real service's) order.
@Suite struct SavedQueryTests {
    @Test(arguments: [
        ("query-conus-m2.5-2019.geojson.gz", ["feed-2.5_month-2025-10.geojson.gz"]),
        ("query-m4.5-2010-2020-sample.geojson.gz", ["feed-2.5_month-2025-10.geojson.gz"]),
        ("query-m4.5-2020-2024-antimeridian-window.geojson.gz", ["feed-all_week-2018-06.geojson.gz"]),
    ])
    func answersTheSavedQueryWithTheSavedEvents(_ name: String, besides others: [String]) async throws {
        let standIn = try StandInProcess(catalogs: ([name] + others).map(TestData.usgs))
        let saved = CatalogFile.read(TestData.usgs(name))
        let url = try #require(saved.metadata?.url.flatMap(URLComponents.init(string:)))
        #expect(url.path == "/fdsnws/event/1/query.geojson")

        let (data, response) = try await standIn.get("query.geojson", url.percentEncodedQuery ?? "")
        #expect(response.statusCode == 200)
        let answer = CatalogFile.read(data, source: name)
        #expect(answer.problem == nil)
        #expect(answer.metadata?.count == saved.events.count)
        // Same events and versions; same order, except that the service leaves ties (equal times) in no fixed order.
        #expect(answer.events.sorted { $0.id < $1.id } == saved.events.sorted { $0.id < $1.id })
        #expect(answer.events.map(\.time) == saved.events.map(\.time))
        let (all, _) = try await standIn.get("count", "starttime=1900-01-01")
        #expect(Int(String(decoding: all, as: UTF8.self))! > saved.events.count)
    }

    @Test func antimeridianWindowIsTheSameFromEitherSide() async throws {
        let standIn = try Fixtures.shared.get()
        let query = "format=geojson&starttime=2020-01-01&endtime=2025-01-02&minmagnitude=4.5&minlatitude=30.902&maxlatitude=45.553"
        let (west, _) = try await standIn.get("query", query + "&minlongitude=-230.405&maxlongitude=-213.838")
        let (east, _) = try await standIn.get("query", query + "&minlongitude=129.595&maxlongitude=146.162")
        #expect(Expected.ids(west).count == 1478)
        #expect(Expected.ids(west) == Expected.ids(east))
    }

    @Test func aRealPreferredIdChangeBetweenTwoFilesIsMerged() async throws {
        let standIn = try Fixtures.shared.get()
        // ci38458319 was preferred in the July 2019 feed; by December us70004bty was, with ci38458319 in its ids.
        let (data, response) = try await standIn.get("query", "eventid=ci38458319&format=geojson")
        #expect(response.statusCode == 200)
        let event = try #require(CatalogFile.read(data, source: "eventid").events.first)
        #expect(event.id == "us70004bty")
        #expect(event.ids.contains("ci38458319"))
        #expect(Fixtures.catalog.filter { $0.allIds.contains("ci38458319") }.map(\.id) == ["us70004bty"])
    }
}

import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// The readers against every real sample: counts match the files' own figures.
@Suite struct SampleFilesTests {
    @Test(arguments: [
        ("feed-all_week-2018-06.geojson.gz", 4711),
        ("feed-all_week-2020-06.geojson.gz", 4119),
        ("feed-2.5_month-2025-10.geojson.gz", 1349),
        ("query-m4.5-2020-2024-antimeridian-window.geojson.gz", 1478),
        ("query-m4.5-2010-2020-sample.geojson.gz", 456),
        ("query-conus-m2.5-2019.geojson.gz", 4312),
        ("query-m6-1973-2023.csv.gz", 7047),
        ("query-m4-1921-2021.csv.gz", 2054),
        ("feed-2.5_month-2019-07.csv.gz", 3121),
    ])
    func readsEveryEvent(name: String, expected: Int) throws {
        let page = CatalogFile.read(TestData.usgs(name))
        #expect(page.problem == nil)
        #expect(page.rejects.isEmpty, "\(page.rejects.prefix(3))")
        #expect(page.events.count == expected)
        #expect(Set(page.events.map(\.id)).count == expected)
        for event in page.events {
            #expect(event.longitude.map { (-180...180).contains($0) } == true)
            #expect(event.latitude.map { (-90...90).contains($0) } == true)
            #expect(event.time != nil)
        }
    }

    @Test func geoJSONRoundTripsThroughTheWriter() throws {
        let page = CatalogFile.read(TestData.usgs("feed-all_week-2018-06.geojson.gz"))
        let text = GeoJSONWriter.collection(page.events, metadata: PageMetadata(status: 200, count: page.events.count))
        let again = GeoJSONReader.read(Data(text.utf8), source: "round trip")
        #expect(again.problem == nil)
        #expect(again.events == page.events)
        #expect(again.metadata?.count == page.events.count)
    }

    @Test func csvRoundTripsThroughTheWriter() throws {
        let page = CatalogFile.read(TestData.usgs("query-m4-1921-2021.csv.gz"))
        let again = ComCatCSV.read(Data(ComCatCSV.write(page.events).utf8), source: "round trip")
        #expect(again.rejects.isEmpty)
        #expect(again.events == page.events)
        #expect(page.events.contains { $0.mag == nil })
        #expect(page.events.contains { ($0.time ?? 0) < 0 })
    }

    @Test func csvIsHandedOverInChunksAsItIsRead() throws {
        let data = try Data(contentsOf: TestData.usgs("query-m6-1973-2023.csv.gz"))
        let whole = CatalogFile.read(data, source: "whole")
        var chunks: [[QuakeEvent]] = []
        let rest = CatalogFile.read(data, source: "chunked", chunkSize: 500) { chunks.append($0) }
        #expect(chunks.count > 3 && chunks.dropLast().allSatisfy { $0.count == 500 } && chunks.last!.count <= 500)
        #expect(chunks.flatMap { $0 } == whole.events, "the same events in the same order")
        #expect(rest.events.isEmpty && rest.rejects.count == whole.rejects.count && rest.problem == whole.problem)
    }
}

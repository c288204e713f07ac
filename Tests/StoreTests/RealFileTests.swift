import Foundation
import QuakeCatalog
import QuakeStore
import Testing
import TestSupport

/// Every real sample in `data/` (GeoJSON feeds 2018, 2020, 2025, FDSN queries, the
/// antimeridian window, CSV 1921–2023) goes into the store and comes out the same.
@Suite struct RealFileTests {
    static let samples = [
        "feed-all_week-2018-06.geojson.gz", "feed-all_week-2020-06.geojson.gz", "feed-2.5_month-2025-10.geojson.gz",
        "query-conus-m2.5-2019.geojson.gz", "query-m4.5-2010-2020-sample.geojson.gz",
        "query-m4.5-2020-2024-antimeridian-window.geojson.gz",
        "query-m4-1921-2021.csv.gz", "query-m6-1973-2023.csv.gz", "feed-2.5_month-2019-07.csv.gz",
    ]

    @Test(arguments: samples)
    func eachSampleIsStoredExactly(name: String) throws {
        let f = StoreFixture()
        let page = CatalogFile.read(TestData.usgs(name))
        let summary = try f.index([.file(TestData.usgs(name))])
        #expect(summary.counts.inserted == page.events.count && summary.counts.rejected == 0)
        #expect(try f.events() == Dictionary(uniqueKeysWithValues: page.events.map { ($0.id, $0) }))
        #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok")
        #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "\(page.events.count)")
    }

    @Test func theOldCatalogKeepsNegativeTimesAndMissingMagnitudes() throws {
        let f = StoreFixture()
        try f.index([.file(TestData.usgs("query-m4-1921-2021.csv.gz"))])
        #expect(try Int(f.value("SELECT count(*) FROM events WHERE time < 0"))! > 0)
        #expect(try f.value("SELECT count(*) FROM events WHERE mag IS NULL") == "6")
        let statistics = try f.read { try $0.statistics() }
        #expect(statistics.timeRange!.lowerBound < -1_000_000_000_000)  // 1921
        #expect(statistics.events == 2054)
    }

    @Test func theAntimeridianWindowIsNormalisedAndBoxesNearTheAntimeridianFindEvents() throws {
        let f = StoreFixture()
        // Asked as longitudes -230.405…-213.838, served normalised: 129.595…146.162.
        let window = CatalogFile.read(TestData.usgs("query-m4.5-2020-2024-antimeridian-window.geojson.gz")).events
        try f.index([.file(TestData.usgs("query-m4.5-2020-2024-antimeridian-window.geojson.gz")),
                     .file(TestData.usgs("feed-all_week-2018-06.geojson.gz"))])
        let ids = window.map { "'\($0.id)'" }.joined(separator: ",")
        #expect(try f.value("SELECT count(*) FROM events WHERE id IN (\(ids)) AND longitude BETWEEN 129.595 AND 146.162") == "\(window.count)")
        #expect(try f.value("SELECT count(*) FROM events WHERE longitude < -180 OR longitude > 180") == "0")
        for (west, east) in [(170.0, 180.0), (-180.0, -170.0), (140.0, 147.0)] {
            let indexed = try f.value("""
                SELECT count(*) FROM events WHERE rowid IN (SELECT rowid FROM SpatialIndex
                WHERE f_table_name = 'events' AND search_frame = BuildMbr(\(west), -90, \(east), 90))
                """)
            let scanned = try f.value("SELECT count(*) FROM events WHERE longitude BETWEEN \(west) AND \(east)")
            #expect(indexed == scanned && Int(scanned)! > 0, "\(west)…\(east)")
        }
    }

    @Test func allSamplesTogetherEqualTheReferenceModelWhetherBuiltAtOnceOrOneByOne() throws {
        let sources = Self.samples.map { IndexSource.file(TestData.usgs($0)) }
        var reference = ReferenceCatalog()
        for name in Self.samples { reference.apply(CatalogFile.read(TestData.usgs(name)).events) }

        let atOnce = StoreFixture()
        #expect(try atOnce.index(sources).builtAfresh)
        let oneByOne = StoreFixture()
        for source in sources { try oneByOne.index([source]) }

        let expected = reference.events
        #expect(try atOnce.events() == expected)
        #expect(try oneByOne.events() == expected)
        #expect(try atOnce.sql("SELECT id, preferred FROM event_ids ORDER BY id") == oneByOne.sql("SELECT id, preferred FROM event_ids ORDER BY id"))
        for f in [atOnce, oneByOne] {
            #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok")
            #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
        }
        // Indexing everything again changes nothing and reads nothing.
        let again = try oneByOne.index(sources)
        #expect(again.sources.allSatisfy { $0.outcome == .alreadyIndexed } && again.counts == IndexCounts())
    }
}

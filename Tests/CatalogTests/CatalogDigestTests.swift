import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// `CatalogDigest`: the same events give the same digest in any order; any change of a digested
/// field gives another.
@Suite struct CatalogDigestTests {
    static func events() throws -> [QuakeEvent] {
        let page = CatalogFile.read(TestData.usgs("feed-2.5_month-2025-10.geojson.gz"))
        try #require(page.problem == nil && page.events.count > 1_000)
        return page.events
    }

    @Test func orderDoesNotMatter() throws {
        let events = try Self.events()
        var generator = SystemRandomNumberGenerator()
        #expect(CatalogDigest.of(events) == CatalogDigest.of(events.shuffled(using: &generator)))
        #expect(CatalogDigest.of(events) == CatalogDigest.of(lines: events.reversed().map(CatalogDigest.line(of:))))
    }

    @Test func everyDigestedFieldCounts() throws {
        let events = try Self.events()
        let original = CatalogDigest.of(events)
        let changes: [(String, (inout QuakeEvent) -> Void)] = [
            ("updated", { $0.updated += 1 }), ("time", { $0.time = ($0.time ?? 0) + 1 }),
            ("longitude", { $0.longitude = ($0.longitude ?? 0) + 1e-6 }), ("latitude", { $0.latitude = ($0.latitude ?? 0) + 1e-6 }),
            ("depth", { $0.depthKm = nil }), ("magnitude", { $0.mag = ($0.mag ?? 0) + 0.01 }), ("id", { $0.id += "x" }),
        ]
        for (field, change) in changes {
            var changed = events
            change(&changed[events.count / 2])
            #expect(CatalogDigest.of(changed) != original, "\(field)")
        }
        #expect(CatalogDigest.of(events.dropLast()) != original, "one event fewer")
    }

    @Test func aLineReadsAsDocumented() {
        let line = CatalogDigest.line(id: "us7000abcd", updated: 1_700_000_000_123, time: nil, longitude: -180, latitude: 12.5,
                                      depthKm: nil, mag: 4.25)
        #expect(String(decoding: line, as: UTF8.self) == "us7000abcd|1700000000123|-|-180.0|12.5|-|4.25")
    }
}

import QuakeSynthetic
import Foundation
import QuakeCatalog
import Testing

/// The benchmark generator: deterministic, valid, clustered, Gutenberg–Richter.
@Suite struct SyntheticCatalogTests {
    @Test func theSameSeedGivesTheSameEvents() {
        var a = SyntheticCatalog(seed: 1), b = SyntheticCatalog(seed: 1), c = SyntheticCatalog(seed: 2)
        let first = a.events(2000)
        #expect(first == b.events(2000))
        #expect(first != c.events(2000))
    }

    @Test func eventsAreValidComCatEventsWithUniqueIDs() throws {
        let events = Array(SyntheticCatalog(seed: 3).prefix(20_000))
        let text = GeoJSONWriter.collection(events, metadata: PageMetadata(status: 200, count: events.count))
        let page = GeoJSONReader.read(Data(text.utf8), source: "synthetic")
        #expect(page.problem == nil && page.rejects.isEmpty)
        #expect(page.events == events)
        #expect(Set(events.flatMap(\.allIds)).count == events.reduce(0) { $0 + $1.allIds.count })
        #expect(events.map { $0.time! } == events.map { $0.time! }.sorted())
        #expect(events.contains { $0.ids.count > 1 } && events.contains { $0.eventType == "quarry blast" })
        #expect(events.contains { ($0.mag ?? 0) < 0 })
    }

    @Test func magnitudesFollowGutenbergRichter() {
        let global = SyntheticCatalog(seed: 4).prefix(300_000).filter { $0.net == "us" }.compactMap(\.mag)
        let counts = (4...6).map { m in global.filter { $0 >= Double(m) + 0.5 }.count }
        // b ≈ 1: ten times fewer events per magnitude unit.
        for (larger, smaller) in zip(counts.dropFirst(), counts) {
            let ratio = Double(smaller) / Double(max(larger, 1))
            #expect(ratio > 6 && ratio < 16, "\(counts)")
        }
    }

    @Test func eventsClusterWhereTheRealCatalogDoes() {
        let events = Array(SyntheticCatalog(seed: 5).prefix(50_000))
        var cells: [Int: Int] = [:]
        for e in events { cells[Int((e.latitude! + 90).rounded(.down)) * 360 + Int((e.longitude! + 180).rounded(.down)), default: 0] += 1 }
        let busiest = cells.values.sorted(by: >).prefix(20).reduce(0, +)
        // 20 of 64,800 one-degree cells hold most events, as in ComCat (uniform would give 0.03 %).
        #expect(Double(busiest) / Double(events.count) > 0.4)
        #expect(events.contains { $0.longitude! > 175 } && events.contains { $0.longitude! < -175 })
    }
}

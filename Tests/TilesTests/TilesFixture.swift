import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles
import TestSupport

/// Builds the in-memory tables thinning works on from real sample events.
enum TilesFixture {
    /// The events of sample files, one per id (the newest version).
    static func events(_ samples: [String]) -> [QuakeEvent] {
        var newest: [String: QuakeEvent] = [:]
        for event in samples.flatMap({ CatalogFile.read(TestData.usgs($0)).events }) where !event.isDeleted {
            if let known = newest[event.id], known.updated >= event.updated { continue }
            newest[event.id] = event
        }
        return newest.values.sorted { $0.id < $1.id }
    }

    /// An `EventTable` holding `events` with `attributes`, as the exporter fills it from the store.
    static func table(_ events: [QuakeEvent], attributes: [EventAttribute] = EventAttribute.defaults, spill: SpillFile? = nil) -> EventTable {
        var table = EventTable(attributes: attributes, spill: spill)
        for event in events { append(event, to: &table) }
        return table
    }

    /// Appends `event` to `table` (its fingerprint is its `updated`).
    static func append(_ event: QuakeEvent, to table: inout EventTable) {
        Array(event.id.utf8).withUnsafeBytes { id in
            table.appendEvent(id: id, longitude: event.longitude!, latitude: event.latitude!, magnitude: event.mag,
                              time: event.time!, fingerprint: UInt64(truncatingIfNeeded: event.updated))
        }
        for (index, attribute) in table.storedAttributes.enumerated() {
            switch attribute {
            case .depthKm: table.appendReal(index, event.depthKm)
            case .cdi: table.appendReal(index, event.cdi)
            case .place: text(&table, index, event.place)
            case .eventType: text(&table, index, event.eventType)
            case .status: text(&table, index, event.status)
            case .alert: text(&table, index, event.alert)
            case .tsunami: table.appendInteger(index, event.tsunami.map(Int64.init))
            case .sig: table.appendInteger(index, event.sig.map(Int64.init))
            case .updated: table.appendInteger(index, event.updated)
            default: fatalError("the fixture does not fill \(attribute)")
            }
        }
    }

    private static func text(_ table: inout EventTable, _ index: Int, _ value: String?) {
        guard let value else { table.appendText(index, nil); return }
        Array(value.utf8).withUnsafeBytes { table.appendText(index, $0) }
    }

    /// Priority as the issue states it, computed here without QuakeTiles: magnitude descending
    /// (unknown last), then newer first, then id ascending.
    static func priorityOrder(_ events: [QuakeEvent]) -> [Int] {
        events.indices.sorted { a, b in
            let ea = events[a], eb = events[b]
            let ma = ea.mag ?? -.infinity, mb = eb.mag ?? -.infinity
            if ma != mb { return ma > mb }
            if ea.time! != eb.time! { return ea.time! > eb.time! }
            return Array(ea.id.utf8).lexicographicallyPrecedes(Array(eb.id.utf8))
        }
    }

    /// The grid cell (column, row) of an event at `zoom` with cells of `cellSize` pixels, from the textbook Mercator formula.
    static func cell(_ event: QuakeEvent, zoom: Int, cellSize: Int) -> [Int] {
        let cellsAcross = Double(1 << zoom) * 256 / Double(cellSize)
        let lat = min(max(event.latitude!, -85.0511287798066), 85.0511287798066) * .pi / 180
        let x = (event.longitude! + 180) / 360 * cellsAcross
        let y = (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * cellsAcross
        return [Int(min(x.rounded(.down), cellsAcross - 1)), Int(min(y.rounded(.down), cellsAcross - 1))]
    }
}

import Foundation
import QuakeCatalog
import Testing

/// A feature's properties are found by name whatever their order: the reader looks for each
/// where the one before it was found (USGS's order), then round the whole list.
@Suite struct FeatureMappingTests {
    /// Every property the reader maps, in the order USGS writes them, with a value each.
    static let properties: [(name: String, json: String)] = [
        ("mag", "4.6"), ("place", #""12 km NNE of Somewhere""#), ("time", "1700000000000"),
        ("updated", "1700000123456"), ("tz", "-300"), ("url", #""https://example.org/us7000abcd""#),
        ("detail", #""https://example.org/us7000abcd.geojson""#), ("felt", "12"), ("cdi", "3.4"),
        ("mmi", "4.1"), ("alert", #""green""#), ("status", #""reviewed""#), ("tsunami", "1"),
        ("sig", "326"), ("net", #""us""#), ("code", #""7000abcd""#), ("ids", #"",us7000abcd,at0001,""#),
        ("sources", #"",us,at,""#), ("types", #"",origin,phase-data,""#), ("nst", "41"), ("dmin", "1.2"),
        ("rms", "0.77"), ("gap", "48"), ("magType", #""mww""#), ("type", #""earthquake""#),
        ("title", #""M 4.6 - 12 km NNE of Somewhere""#),
    ]

    static func event(_ properties: [(name: String, json: String)]) throws -> QuakeEvent {
        let members = properties.map { "\"\($0.name)\":\($0.json)" }.joined(separator: ",")
        let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"#
            + members + #"},"geometry":{"type":"Point","coordinates":[142.1,38.2,29.5]},"id":"us7000abcd"}]}"#
        let page = CatalogFile.read(Data(text.utf8), source: "test")
        #expect(page.rejects.isEmpty && page.problem == nil, "\(page.rejects) \(page.problem ?? "")")
        return try #require(page.events.first)
    }

    @Test func propertiesInAnyOrderGiveTheSameEvent() throws {
        let usgs = try Self.event(Self.properties)
        #expect(usgs.mag == 4.6 && usgs.title == "M 4.6 - 12 km NNE of Somewhere" && usgs.tsunami == 1 && usgs.gap == 48)
        let count = Self.properties.count
        let orders: [[(name: String, json: String)]] = [
            Self.properties.reversed(),
            (0..<count).map { Self.properties[($0 * 7) % count] },  // 7 and 26 are coprime: every property once
            Self.properties.filter { $0.name != "mag" } + [Self.properties[0]] + [("products", #"{"x":[1]}"#)],
        ]
        for order in orders {
            #expect(try Self.event(order) == usgs, "\(order.map(\.name))")
        }
    }
}

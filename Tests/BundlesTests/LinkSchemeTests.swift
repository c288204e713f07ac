import Foundation
import GRDB
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Links that are not http(s) (issue 46): `url` and `detail` were published as read,
/// `javascript:` included, into the app database, `recent.geojson` and the GeoJSON zooms. Now
/// the index drops them (the event is stored, a warning names the first), and an export reads
/// them as missing from a store that still has them.
@Suite struct LinkSchemeTests {
    /// The hostile links, and one that is fine whatever its case.
    static let links: [(id: String, url: String?, detail: String?)] = [
        ("qbjs1", "javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>"),
        ("qbjs2", " javascript:alert(1)", "file:///etc/passwd"),
        ("qbjs3", "JaVaScRiPt:alert(1)", "https://earthquake.usgs.gov/fdsnws/event/1/query?eventid=qbjs3&format=geojson"),
        ("qbok4", "HTTPS://earthquake.usgs.gov/earthquakes/eventpage/qbok4", "http://example.org/qbok4.geojson"),
    ]

    static func feature(_ link: (id: String, url: String?, detail: String?), index: Int) -> String {
        let time = 1_761_000_000_000 + Int64(index) * 60_000
        func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
        return #"{"type":"Feature","id":"\#(link.id)","properties":{"mag":\#(3 + index),"place":"test","time":\#(time),"updated":\#(time),"#
            + #""url":\#(text(link.url)),"detail":\#(text(link.detail)),"type":"earthquake","ids":",\#(link.id),"},"#
            + #""geometry":{"type":"Point","coordinates":[\#(-120 + index),\#(35 + index),5]}}"#
    }

    @Test func theIndexDropsThemAndKeepsTheEvents() async throws {
        let directory = TemporaryDirectory("links")
        let root = directory.path("ws").path
        let file = directory.path("links.geojson")
        try (#"{"type":"FeatureCollection","features":["# + Self.links.enumerated().map { Self.feature($1, index: $0) }.joined(separator: ",") + "]}")
            .write(to: file, atomically: true, encoding: .utf8)
        let index = try await QuakeBakeCLI.run(["index", "--workspace", root, "--from", file.path]).checked()
        #expect(index.standardError.contains("5 links (url, detail) not http or https dropped, the events stored without them; "
                                             + "the first: event qbjs1's url \"javascript:alert(document.cookie)\""), "\(index.standardError)")
        let stored = try await DatabaseQueue(path: directory.path("ws/store/quakes.sqlite").path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, url, detail FROM events ORDER BY id").map { [$0[0] as String, $0[1] as String?, $0[2] as String?] }
        }
        #expect(stored == [["qbjs1", nil, nil], ["qbjs2", nil, nil],
                           ["qbjs3", nil, "https://earthquake.usgs.gov/fdsnws/event/1/query?eventid=qbjs3&format=geojson"],
                           ["qbok4", "HTTPS://earthquake.usgs.gov/earthquakes/eventpage/qbok4", "http://example.org/qbok4.geojson"]])

        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "3", "--attributes", "id,mag,time,url", "--recent-days", "off"]).checked()
        let bundle = URL(fileURLWithPath: root).appendingPathComponent("bundles/current")
        try Self.expectOnlyWebLinks(in: bundle)
    }

    /// A store written before issue 46 (or by another tool) that holds such links: the export
    /// leaves them out of everything it writes, the recent layer included.
    @Test func anExportReadsThemAsMissingFromAStoreThatHasThem() throws {
        let directory = TemporaryDirectory("links-old")
        var events: [QuakeEvent] = []
        for (index, link) in Self.links.enumerated() {
            var event = QuakeEvent(id: link.id, updated: 1_761_000_000_000 + Int64(index), time: 1_761_000_000_000 + Int64(index) * 60_000,
                                   longitude: Double(-120 + index), latitude: Double(35 + index))
            (event.ids, event.mag, event.url, event.detail) = ([link.id], Double(3 + index), link.url, link.detail)
            events.append(event)
        }
        let store = try TestStore(workspace: directory.url, samples: ["feed-2.5_month-2025-10.geojson.gz"], extra: events)
        for recent in [RecentDays.off, .days(30)] {
            let out = directory.path("bundles-\(recent)")
            let summary = try ExportHelpers.export(store, to: out) { $0.thinning.maxZoom = 3; $0.attributes = [.id, .mag, .time, .url]; $0.recentDays = recent }
            try Self.expectOnlyWebLinks(in: summary.directory)
        }
    }

    /// Every file of `bundle` (gzip and tiles unpacked) is free of the hostile links, and the
    /// app database and the GeoJSON hold the good one.
    static func expectOnlyWebLinks(in bundle: URL) throws {
        var texts: [String: String] = [:]
        for (path, data) in try ExportHelpers.files(bundle) where !path.hasSuffix(".sqlite") && !path.hasSuffix(".mbtiles") && !path.hasSuffix(".pmtiles") {
            texts[path] = String(decoding: Gzip.isCompressed(data) ? try Gzip.decompress(data) : data, as: UTF8.self)
        }
        let tiles = try DatabaseQueue(path: bundle.appendingPathComponent("quakes.mbtiles").path).read { db in try Data.fetchAll(db, sql: "SELECT tile_data FROM tiles") }
        for (index, tile) in tiles.enumerated() { texts["tile \(index)"] = String(decoding: try Gzip.decompress(tile), as: UTF8.self) }
        let app = try DatabaseQueue(path: bundle.appendingPathComponent("quakes.sqlite").path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, url FROM events WHERE id LIKE 'qb%' ORDER BY id").map { [$0[0] as String, $0[1] as String?] }
        }
        #expect(app == [["qbjs1", nil], ["qbjs2", nil], ["qbjs3", nil], ["qbok4", "HTTPS://earthquake.usgs.gov/earthquakes/eventpage/qbok4"]])
        let hostile = ["javascript:", "JaVaScRiPt:", "data:text/html", "file:///etc"]
        let holding = texts.filter { _, text in hostile.contains { text.contains($0) } }.keys.sorted()
        #expect(holding.isEmpty, "files holding a link that is not http(s): \(holding)")
        #expect(texts.values.contains { $0.contains("HTTPS://earthquake.usgs.gov/earthquakes/eventpage/qbok4") }, "the good link is published")
    }
}

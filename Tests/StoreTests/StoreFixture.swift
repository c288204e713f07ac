import Foundation
import Logging
import QuakeCatalog
import QuakeCommon
import QuakeStore
import TestSupport

/// A store in a temporary directory, pages written on demand, and independent
/// witnesses (the `spatialite` shell) to look inside.
final class StoreFixture: @unchecked Sendable {
    let directory = TemporaryDirectory("quake-store-test")
    var store: URL { directory.path("store/quakes.sqlite") }
    private var pageCount = 0

    /// Writes `events` as a GeoJSON FeatureCollection page and returns it as a source.
    func page(_ events: [QuakeEvent], gzip: Bool = false) throws -> IndexSource {
        pageCount += 1
        let text = GeoJSONWriter.collection(events, metadata: PageMetadata(status: 200, count: events.count))
        return try file("page-\(pageCount).geojson\(gzip ? ".gz" : "")", gzip ? Gzip.compress(Data(text.utf8)) : Data(text.utf8))
    }

    /// Writes `contents` to a file named `name` and returns it as a source.
    func file(_ name: String, _ contents: Data) throws -> IndexSource {
        let url = directory.path(name)
        try contents.write(to: url)
        return .file(url)
    }

    func file(_ name: String, _ text: String) throws -> IndexSource {
        try file(name, Data(text.utf8))
    }

    /// Indexes `sources` into the store.
    @discardableResult
    func index(_ sources: [IndexSource]) throws -> IndexSummary {
        try Indexer.index(sources, store: store, logger: quiet)
    }

    /// Rebuilds the store from `sources`.
    @discardableResult
    func rebuild(_ sources: [IndexSource]) throws -> IndexSummary {
        try Indexer.rebuild(sources, store: store, logger: quiet)
    }

    /// Indexes one page of `events`.
    @discardableResult
    func index(_ events: QuakeEvent...) throws -> IndexCounts {
        try index([page(events)]).counts
    }

    /// Every stored event, by id.
    func events() throws -> [String: QuakeEvent] {
        let opened = try EventStore(opening: store)
        defer { try? opened.close() }
        var all: [String: QuakeEvent] = [:]
        try opened.forEachEvent { all[$0.id] = $0 }
        return all
    }

    /// Runs `body` on the store opened for reading.
    func read<T>(_ body: (EventStore) throws -> T) throws -> T {
        let opened = try EventStore(opening: store)
        defer { try? opened.close() }
        return try body(opened)
    }

    /// Runs SQL through the `spatialite` shell and returns its output lines.
    /// (Blocking: the store tests call it from synchronous code throughout.)
    func sql(_ statements: String) throws -> [String] {
        try ChildProcess.runBlocking("spatialite", [store.path, statements]).checked().standardOutput.split(separator: "\n").map(String.init)
    }

    /// The one value a query answers.
    func value(_ query: String) throws -> String {
        try sql(query).last ?? ""
    }

    /// A snapshot of every table the indexer writes, for "nothing changed" checks.
    func snapshot() throws -> [String] {
        try sql("""
            SELECT * FROM events ORDER BY id; SELECT * FROM event_ids ORDER BY id; SELECT * FROM tombstones ORDER BY id;
            SELECT id, source, position, reason FROM rejects ORDER BY id; SELECT id, name, sha256 FROM sources ORDER BY id;
            SELECT * FROM idx_events_geom ORDER BY pkid;
            """)
    }
}

/// Tests read outcomes from the store and the summary, not from log lines.
let quiet = Logger(label: "index") { _ in SwiftLogNoOpLogHandler() }

/// A minimal valid event, as tests need them (as the service writes it: `tsunami` 0, not null).
func quake(_ id: String, updated: Int64, ids: [String]? = nil, mag: Double? = 2.5,
           longitude: Double = -117.5, latitude: Double = 35.7) -> QuakeEvent {
    var event = QuakeEvent(id: id, updated: updated, time: 1_600_000_000_000, longitude: longitude, latitude: latitude)
    event.ids = ids ?? [id]
    event.mag = mag
    event.status = "reviewed"
    event.eventType = "earthquake"
    event.depthKm = 8.5
    event.tsunami = 0
    return event
}

/// A deletion as the service serves it: status "deleted", most fields gone.
func deletion(_ id: String, updated: Int64, ids: [String]? = nil) -> QuakeEvent {
    var event = QuakeEvent(id: id, updated: updated)
    event.ids = ids ?? [id]
    event.status = "deleted"
    return event
}

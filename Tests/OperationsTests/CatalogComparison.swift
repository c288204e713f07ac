import Foundation
import GRDB
import QuakeCatalog
import QuakeStore
import TestSupport

/// The store held against what the stand-in serves: the replay and chaos suites' measure of "exact".
struct CatalogComparison: CustomStringConvertible {
    /// Served events (not deleted) the store lacks.
    var missing: [String] = []
    /// Store rows the service does not serve under that id (stale ids of renamed events, duplicates, deleted events kept).
    var extra: [String] = []
    /// Events present in both whose version, coordinates, depth or magnitude differ.
    var stale: [String] = []
    /// Old ids of renamed events the store does not map to the current id.
    var unmerged: [String] = []
    /// Events served (not deleted).
    var served = 0
    /// Deleted events served with `includedeleted`.
    var deleted = 0

    var mismatches: Int { missing.count + extra.count + stale.count + unmerged.count }

    var description: String {
        "\(served) served, \(deleted) deleted; missing \(missing.prefix(5)), extra \(extra.prefix(5)), stale \(stale.prefix(5)), unmerged \(unmerged.prefix(5))"
    }

    /// Compares the store at `store` with everything `standIn` serves from `start` on.
    static func compare(store: URL, with standIn: StandInProcess, start: String) async throws -> CatalogComparison {
        let all = try await standIn.catalog("includedeleted=true&starttime=\(start)")
        var comparison = CatalogComparison()
        let served = Dictionary(all.filter { !$0.isDeleted }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        comparison.served = served.count
        comparison.deleted = all.count - served.count
        var stored: [String: QuakeEvent] = [:]
        var preferred: [String: String] = [:]
        if FileManager.default.fileExists(atPath: store.path) {
            let eventStore = try EventStore(opening: store)
            defer { try? eventStore.close() }
            try eventStore.forEachEvent { stored[$0.id] = $0 }
            for event in served.values {
                for id in event.ids where id != event.id { preferred[id] = try eventStore.preferredID(of: id) }
            }
        }
        comparison.missing = served.keys.filter { stored[$0] == nil }.sorted()
        comparison.extra = stored.keys.filter { served[$0] == nil }.sorted()
        for (id, event) in served {
            guard let mine = stored[id] else { continue }
            if mine.updated != event.updated || mine.longitude != event.longitude || mine.latitude != event.latitude
                || mine.depthKm != event.depthKm || mine.mag != event.mag || mine.time != event.time {
                comparison.stale.append(id)
            }
            for old in event.ids where old != id && served[old] == nil && preferred[old] != id {
                comparison.unmerged.append(old)
            }
        }
        comparison.stale.sort()
        comparison.unmerged.sort()
        return comparison
    }

    /// The `CatalogDigest` of the store's events and their number.
    static func storeDigest(_ store: URL) throws -> (events: Int, digest: String) {
        guard FileManager.default.fileExists(atPath: store.path) else { return (0, CatalogDigest.of([QuakeEvent]())) }
        // The digest's columns only (reading whole events costs as much as the rest of a replay step).
        let queue = try DatabaseQueue(path: store.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        let lines = try queue.read { db in
            var lines: [[UInt8]] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT id, updated, time, longitude, latitude, depth_km, mag FROM events")
            while let row = try rows.next() {
                lines.append(CatalogDigest.line(id: row[0], updated: row[1], time: row[2], longitude: row[3], latitude: row[4],
                                                depthKm: row[5], mag: row[6]))
            }
            return lines
        }
        return (lines.count, CatalogDigest.of(lines: lines))
    }

    /// `PRAGMA integrity_check` of a SQLite file: `ok` when sound.
    static func integrity(of file: URL) throws -> String {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } ?? "no answer"
    }
}

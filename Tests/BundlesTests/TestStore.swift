import Foundation
import GRDB
import QuakeCatalog
import QuakeSQLite
import QuakeStore
import TestSupport

/// A store for export tests: the contract's `events` table (docs/store.md),
/// filled from real sample files, without SpatiaLite (export reads plain columns).
/// Events can be changed, added and deleted to drive incremental exports.
final class TestStore: @unchecked Sendable {
    let url: URL
    private let queue: DatabaseQueue

    /// The store's own `events` table (`geom` as a plain blob), its indexes and a `tombstones` table.
    static let schema = StoreColumns.createEventsSQL + """

        ALTER TABLE events ADD COLUMN geom BLOB;
        CREATE INDEX events_time ON events(time);
        CREATE INDEX events_mag ON events(mag);
        CREATE INDEX events_updated ON events(updated);
        CREATE TABLE tombstones (id TEXT PRIMARY KEY NOT NULL, ids TEXT NOT NULL, updated INTEGER NOT NULL);
        """

    init(at url: URL, events: [QuakeEvent]) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: Self.schema)
        }
        try upsert(events)
    }

    /// A store in `directory/store/quakes.sqlite` (the workspace layout) holding the events of sample files.
    convenience init(workspace directory: URL, samples: [String], extra: [QuakeEvent] = []) throws {
        let url = directory.appendingPathComponent("store/quakes.sqlite")
        guard extra.isEmpty else {
            let events = samples.flatMap { CatalogFile.read(TestData.usgs($0)).events }
            try self.init(at: url, events: Self.newestPerID(events + extra))
            return
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("store"), withIntermediateDirectories: true)
        try Self.templates.bytes(of: samples).write(to: url)
        try self.init(opening: url)
    }

    /// Opens a store file made before.
    private init(opening url: URL) throws {
        self.url = url
        queue = try DatabaseQueue(path: url.path)
    }

    /// The bytes of a store of each set of samples, made once per test process: tens of tests
    /// export the same samples, and parsing and inserting them again was 8 % of BundlesTests'
    /// CPU. A copy is the same file that making it again gives.
    private static let templates = Templates()

    private final class Templates: @unchecked Sendable {
        private let lock = NSLock()
        private var made: [[String]: Data] = [:]

        func bytes(of samples: [String]) throws -> Data {
            lock.lock()
            defer { lock.unlock() }
            if let bytes = made[samples] { return bytes }
            let directory = TemporaryDirectory("test-store")
            let events = samples.flatMap { CatalogFile.read(TestData.usgs($0)).events }
            let url = directory.path("quakes.sqlite")
            _ = try TestStore(at: url, events: TestStore.newestPerID(events))
            let bytes = try Data(contentsOf: url)
            made[samples] = bytes
            return bytes
        }
    }

    /// Inserts or replaces events (by id), bound through the sqlite3 C API (`RawStatement`): GRDB's
    /// binding, compiled unoptimised in the tests' builds, was 4–5 s of a quick loop's CPU.
    func upsert(_ events: [QuakeEvent]) throws {
        try queue.write { db in
            let columns = StoreColumns.contractNames
            precondition(columns.count == 28, "TestStore.upsert binds the 28 contract columns of docs/store.md")
            let statement = try RawStatement(db,
                "INSERT OR REPLACE INTO events (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            for e in events {
                let s = statement
                s.bind(1, e.id); s.bind(2, CommaList.format(e.ids)); s.bind(3, CommaList.format(e.sources)); s.bind(4, CommaList.format(e.types))
                s.bind(5, e.time); s.bind(6, e.updated); s.bind(7, e.longitude); s.bind(8, e.latitude); s.bind(9, e.depthKm); s.bind(10, e.mag)
                s.bind(11, e.magType); s.bind(12, e.place); s.bind(13, e.status); s.bind(14, e.eventType); s.bind(15, e.net); s.bind(16, e.code)
                s.bind(17, e.felt); s.bind(18, e.cdi); s.bind(19, e.mmi); s.bind(20, e.alert); s.bind(21, e.tsunami); s.bind(22, e.sig)
                s.bind(23, e.nst); s.bind(24, e.dmin); s.bind(25, e.rms); s.bind(26, e.gap); s.bind(27, e.title); s.bind(28, e.url)
                try s.run()
            }
        }
    }

    /// Sets the details of events (the store's `details` table, made on first use: a store made
    /// before it had one has none): a summary per id, nil to remove it.
    func setDetails(_ details: [String: String?]) throws {
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS details (id TEXT PRIMARY KEY NOT NULL, updated INTEGER, event_updated INTEGER NOT NULL,
                    fetched_at TEXT NOT NULL, archive INTEGER NOT NULL, summary TEXT NOT NULL) WITHOUT ROWID
                """)
            for (id, summary) in details {
                if let summary {
                    try db.execute(sql: "INSERT OR REPLACE INTO details VALUES (?, 1, 1, '2026-01-01T00:00:00Z', 1, ?)", arguments: [id, summary])
                } else {
                    try db.execute(sql: "DELETE FROM details WHERE id = ?", arguments: [id])
                }
            }
        }
    }

    /// Deletes events by id, leaving tombstones as the real store does.
    func delete(_ ids: [String], updated: Int64) throws {
        try queue.write { db in
            for id in ids {
                try db.execute(sql: "DELETE FROM events WHERE id = ?", arguments: [id])
                try db.execute(sql: "INSERT OR REPLACE INTO tombstones (id, ids, updated) VALUES (?, ?, ?)", arguments: [id, ",\(id),", updated])
            }
        }
    }

    /// Removes rows without a tombstone, as a merge does to the events it joins to another.
    func remove(_ ids: [String]) throws {
        try queue.write { db in
            for id in ids { try db.execute(sql: "DELETE FROM events WHERE id = ?", arguments: [id]) }
        }
    }

    /// Every event of the store, by id.
    func events() throws -> [String: QuakeEvent] {
        try queue.read { db in
            var all: [String: QuakeEvent] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, time, updated, longitude, latitude, mag, event_type FROM events") {
                var event = QuakeEvent(id: row[0], updated: row[2], time: row[1], longitude: row[3], latitude: row[4])
                event.mag = row[5]
                event.eventType = row[6]
                all[event.id] = event
            }
            return all
        }
    }

    /// One event per id: the newest version (as the real store keeps).
    static func newestPerID(_ events: [QuakeEvent]) -> [QuakeEvent] {
        var newest: [String: QuakeEvent] = [:]
        for event in events where !event.isDeleted {
            if let known = newest[event.id], known.updated >= event.updated { continue }
            newest[event.id] = event
        }
        return newest.values.sorted { $0.id < $1.id }
    }
}

import Foundation
import GRDB
import QuakeCatalog
import QuakeCommon

/// Read access to the store, for `status`, `export`, tests and the replay checks.
/// (The store's tables are a public contract too; this is the typed way in.)
public final class EventStore {
    /// The store file.
    public let url: URL
    private let database: SpatiaLiteDatabase

    /// Opens the store at `url` read-only.
    /// - Throws: when there is no store there, or it is not a store this quake-bake understands.
    public init(opening url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw QuakeBakeError("\(url.path): no store yet; run `quake-bake index` first")
        }
        self.url = url
        database = try SpatiaLiteDatabase(url: url, mode: .read)
        do {
            let version = try database.queue.read(StoreSchema.version(of:))
            guard version == StoreSchema.version else {
                throw QuakeBakeError("\(url.path): store schema version \(version); this quake-bake reads version \(StoreSchema.version) (run `quake-bake index` to migrate, or `index --rebuild`)")
            }
        } catch {
            try? database.close()
            throw error
        }
    }

    /// Closes the store. Further calls fail.
    public func close() throws {
        try database.close()
    }

    /// Figures about the store as a whole.
    public func statistics() throws -> StoreStatistics {
        try database.queue.read { db in
            func groups(_ column: String) throws -> [String: Int] {
                var counts: [String: Int] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT CAST(coalesce(\(column), '') AS TEXT), count(*) FROM events GROUP BY 1") {
                    try counts[row.decode(atIndex: 0)] = row.decode(atIndex: 1)
                }
                return counts
            }
            let events = try Row.fetchOne(db, sql: "SELECT count(*), min(time), max(time), min(mag), max(mag) FROM events")!
            var statistics = StoreStatistics()
            statistics.events = try events.decode(atIndex: 0)
            if let first: Int64 = try events.decode(atIndex: 1), let last: Int64 = try events.decode(atIndex: 2), first <= last {
                statistics.timeRange = first...last
            }
            if let low: Double = try events.decode(atIndex: 3), let high: Double = try events.decode(atIndex: 4), low <= high {
                statistics.magnitudeRange = low...high
            }
            statistics.highWaterMark = try StoreRows.highWaterMark(db)
            statistics.tombstones = try Int.fetchOne(db, sql: "SELECT count(*) FROM tombstones") ?? 0
            statistics.rejects = try Int.fetchOne(db, sql: "SELECT count(*) FROM rejects") ?? 0
            statistics.sources = try Int.fetchOne(db, sql: "SELECT count(*) FROM sources") ?? 0
            statistics.eventTypes = try groups("event_type")
            statistics.statuses = try groups("status")
            statistics.lastIndexed = try String.fetchOne(db, sql: "SELECT max(indexed_at) FROM sources")
            statistics.details = try Int.fetchOne(db, sql: "SELECT count(*) FROM details") ?? 0
            return statistics
        }
    }

    /// The stored version of the event known by `id` (its preferred id or any former one),
    /// or `nil` when there is none (never seen, or deleted).
    public func event(id: String) throws -> QuakeEvent? {
        try database.queue.read { db in
            let row = try Row.fetchOne(db, sql: """
                \(EventRow.selectSQL) WHERE id = (SELECT preferred FROM event_ids WHERE id = ?)
                """, arguments: [id])
            return try row.map(EventRow.event(from:))
        }
    }

    /// The current preferred id of the event once known by `id`, deleted events included.
    public func preferredID(of id: String) throws -> String? {
        try database.queue.read { db in
            try String.fetchOne(db, sql: "SELECT preferred FROM event_ids WHERE id = ?", arguments: [id])
        }
    }

    /// Calls `body` with every stored event, in id order, without holding them all in memory.
    public func forEachEvent(_ body: (QuakeEvent) throws -> Void) throws {
        try database.queue.read { db in
            let rows = try Row.fetchCursor(db, sql: "\(EventRow.selectSQL) ORDER BY id")
            while let row = try rows.next() { try body(EventRow.event(from: row)) }
        }
    }

    /// The tombstone of the deleted event known by `id`, if it is deleted.
    public func tombstone(id: String) throws -> Tombstone? {
        try database.queue.read { db in
            try Row.fetchOne(db, sql: """
                SELECT id, ids, updated, source FROM tombstones WHERE id = (SELECT preferred FROM event_ids WHERE id = ?)
                """, arguments: [id]).map {
                try Tombstone(id: $0.decode(forColumn: "id"), ids: CommaList.parse($0.decode(forColumn: "ids")), updated: $0.decode(forColumn: "updated"),
                              source: $0.decode(forColumn: "source"))
            }
        }
    }

    /// Every tombstone, in id order.
    public func tombstones() throws -> [Tombstone] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, ids, updated, source FROM tombstones ORDER BY id").map {
                try Tombstone(id: $0.decode(forColumn: "id"), ids: CommaList.parse($0.decode(forColumn: "ids")), updated: $0.decode(forColumn: "updated"),
                              source: $0.decode(forColumn: "source"))
            }
        }
    }

    /// Every reject, in the order recorded.
    public func rejects() throws -> [StoredReject] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT source, position, reason, raw FROM rejects ORDER BY id").map {
                try StoredReject(source: $0.decode(forColumn: "source"),
                                 reject: Reject(position: $0.decode(forColumn: "position"), reason: $0.decode(forColumn: "reason"), raw: $0.decode(forColumn: "raw")))
            }
        }
    }
}

/// Figures about a store.
public struct StoreStatistics: Sendable, Hashable {
    /// Rows in `events`.
    public var events = 0
    /// Deleted events remembered.
    public var tombstones = 0
    /// Rows in `rejects`.
    public var rejects = 0
    /// Sources ingested.
    public var sources = 0
    /// The newest `updated` over events and tombstones (ms since 1970 UTC): where an
    /// incremental fetch can resume.
    public var highWaterMark: Int64?
    /// Origin times covered, ms since 1970 UTC.
    public var timeRange: ClosedRange<Int64>?
    /// Magnitudes covered (events without a magnitude aside).
    public var magnitudeRange: ClosedRange<Double>?
    /// Events by `event_type` (`""` for none).
    public var eventTypes: [String: Int] = [:]
    /// Events by `status` (`""` for none).
    public var statuses: [String: Int] = [:]
    /// When the last source was indexed (ISO 8601), if any.
    public var lastIndexed: String?
    /// Quakes with details (rows of `details`).
    public var details = 0

    public init() {}
}

/// A deleted event the store remembers.
public struct Tombstone: Sendable, Hashable {
    /// The deletion's preferred id.
    public var id: String
    /// The ids the deletion named.
    public var ids: [String]
    /// The deletion's version, ms since 1970 UTC.
    public var updated: Int64
    /// The page or file it came from.
    public var source: String

    public init(id: String, ids: [String], updated: Int64, source: String) {
        self.id = id
        self.ids = ids
        self.updated = updated
        self.source = source
    }
}

/// A reject row: what could not be stored, and from where.
public struct StoredReject: Sendable, Hashable {
    /// The page or file it came from.
    public var source: String
    public var reject: Reject

    public init(source: String, reject: Reject) {
        self.source = source
        self.reject = reject
    }
}

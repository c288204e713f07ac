import Foundation
import QuakeBundleFormat

/// One bundle version, opened for the queries a map app makes (docs/bundlekit.md,
/// "The queries"): the biggest quakes in a map rectangle and time window, one quake's details by the
/// feature id a tapped tile feature carries, the recent layer, and the timeline of a rectangle.
///
/// Opening resolves `current` once: the bundle stays on the version it opened (its files are
/// never changed, only removed once an update has switched away, and an open file outlives
/// that); open again after ``BundleClient/update()`` to see the new one. Safe to use from
/// several threads (queries take turns).
public final class QuakeBundle: @unchecked Sendable {
    /// The version directory opened (`current` resolved).
    public let directory: URL
    /// The version it holds (its app database's `info`).
    public let version: String
    private let db: SQLiteConnection
    private let lock = NSLock()
    private var index: QuakeIndex?
    /// Whether the app database has the `details` table (bundles made before it have not).
    private let hasDetails: Bool

    /// Opens the bundle in `directory` (a bundle version directory, or a `current` link to one).
    public init(directory: URL) throws {
        self.directory = directory.resolvingSymlinksInPath()
        let file = self.directory.appendingPathComponent(BundleSchema.appDatabase.name)
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw BundleClientError(.local, "\(file.path): no such file (no bundle installed yet?)")
        }
        do {
            db = try SQLiteConnection(file, readOnly: true)
            version = try db.text("SELECT value FROM info WHERE name = '\(AppDatabaseSchema.Info.bundleVersion)'") ?? ""
            hasDetails = try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(BundleSchema.details.table.name)]) == 1
        } catch let error as SQLiteError {
            throw BundleClientError(.local, error.description)
        }
    }

    /// The biggest quakes (magnitude descending, unknown last; then the newest; then by feature
    /// id) inside `rect` whose origin time is in `window`, at most `limit` of them.
    public func quakes(in rect: MapRect, during window: TimeWindow = .all, limit: Int = 100) throws -> [Quake] {
        try locked {
            let ids = try loadedIndex().biggest(in: rect, during: window, limit: limit)
            return try rows(ids)
        }
    }

    /// The quake whose features in the tiles carry `featureID`, with every field of its row; nil when none does.
    public func details(featureID: Int64) throws -> QuakeDetails? {
        try locked {
            var details: QuakeDetails?
            try query("SELECT \(SQL.list(Quake.columns)), * FROM events WHERE rowid = ?", [.integer(featureID)]) { row in
                var fields: [String: QuakeField] = [:]
                for (offset, column) in BundleSchema.eventColumns.enumerated() {
                    let index = Int32(Quake.columns.count + offset)
                    switch column.kind {
                    case .integer: row.integer(index).map { fields[column.name] = .integer($0) }
                    case .real: row.real(index).map { fields[column.name] = .real($0) }
                    case .text, .blob: row.text(index).map { fields[column.name] = .text($0) }
                    }
                }
                details = QuakeDetails(quake: Quake(row), fields: fields, json: nil)
            }
            guard let found = details, hasDetails else { return details }
            let json = try wrapped { try db.text("SELECT json FROM \(BundleSchema.details.table.quoted) WHERE id = ?", [.text(found.quake.id)]) }
            return QuakeDetails(quake: found.quake, fields: found.fields, json: json)
        }
    }

    /// The recent layer: the quakes from the time the bundle's `info` names (`recent_since`) on,
    /// newest first (empty when the bundle has no recent layer). An app draws them itself, over
    /// the tiles, which leave them out. Read through the app database's time index (it needs
    /// no in-memory index, so an app draws it as soon as it opens the bundle).
    public func recent() throws -> [Quake] {
        try locked {
            guard let since = try text("SELECT value FROM info WHERE name = '\(AppDatabaseSchema.Info.recentSince)'").flatMap({ Int64($0) }) else { return [] }
            var quakes: [Quake] = []
            try query("SELECT \(SQL.list(Quake.columns)) FROM events WHERE time >= ? ORDER BY time DESC, rowid", [.integer(since)]) {
                quakes.append(Quake($0))
            }
            return quakes
        }
    }

    /// The timeline of `rect`: `bins` equal spans of `window` (an open end: the first or last
    /// quake's time, the last one included) with the count and biggest magnitude of each.
    public func timeline(in rect: MapRect, during window: TimeWindow = .all, bins: Int = 100) throws -> [TimelineBin] {
        try locked {
            let index = try loadedIndex()
            guard let span = index.timeSpan else { return [] }
            let start = window.start ?? span.first, end = window.end ?? (span.last + 1)
            return index.timeline(in: rect, start: start, end: end, bins: min(max(bins, 0), 100_000))
        }
    }

    /// The rows of `ids`, in that order.
    private func rows(_ ids: [Int64]) throws -> [Quake] {
        guard !ids.isEmpty else { return [] }
        var byID: [Int64: Quake] = [:]
        byID.reserveCapacity(ids.count)
        let sorted = ids.sorted()
        for chunk in stride(from: 0, to: sorted.count, by: 500) {
            let part = sorted[chunk..<min(chunk + 500, sorted.count)]
            let marks = Array(repeating: "?", count: part.count).joined(separator: ", ")
            try query("SELECT \(SQL.list(Quake.columns)) FROM events WHERE rowid IN (\(marks))", part.map { .integer($0) }) { row in
                let quake = Quake(row)
                byID[quake.featureID] = quake
            }
        }
        return ids.compactMap { byID[$0] }
    }

    private func loadedIndex() throws -> QuakeIndex {
        if let index { return index }
        let made = try wrapped { try QuakeIndex(db) }
        index = made
        return made
    }

    private func query(_ sql: String, _ arguments: [SQLiteValue], row: (SQLiteRow) throws -> Void) throws {
        try wrapped { try db.query(sql, arguments, row: row) }
    }

    private func text(_ sql: String) throws -> String? {
        try wrapped { try db.text(sql) }
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func wrapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw BundleClientError(.local, error.description)
        }
    }
}

import Foundation
import QuakeCatalog
import GRDB
import QuakeCommon

/// A fetch run as the journal holds it.
struct RunRecord: Sendable {
    var id: Int64
    var mode: String
    var updatedAfter: Int64?
    var startedAt: Int64
    var state: String
    var highWaterMark: Int64?
    /// The service's cap, once planned.
    var cap: Int?
    /// The events the planning count said the whole range matched, once planned.
    var countedEvents: Int?
}

/// A time window of a run's plan.
struct WindowRecord: Sendable, Hashable {
    var id: Int64
    var start: Int64
    var end: Int64
    /// The events the window is expected to match.
    var plannedCount: Int
    /// Whether `plannedCount` is the service's count of exactly this window (see `PlannedWindow.counted`).
    var counted: Bool
}

extension Journal {
    /// The newest completed run of the selection `identity`.
    func lastCompletedRun(identity: String) throws -> RunRecord? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM runs WHERE selection_key = ? AND state = 'done' ORDER BY id DESC LIMIT 1",
                             arguments: [identity]).map(Self.run)
        }
    }

    /// A run of `identity` that was interrupted (planning or fetching), to be resumed.
    func unfinishedRun(identity: String) throws -> RunRecord? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM runs WHERE selection_key = ? AND state IN ('planning', 'fetching') ORDER BY id DESC LIMIT 1",
                             arguments: [identity]).map(Self.run)
        }
    }

    /// Starts a run; other unfinished runs (of other selections) are marked abandoned.
    func startRun(identity: String, selection: String, mode: String, updatedAfter: Int64?, now: Int64) throws -> RunRecord {
        try queue.write { db in
            try db.execute(sql: "UPDATE runs SET state = 'abandoned' WHERE state IN ('planning', 'fetching')")
            try db.execute(sql: """
                INSERT INTO runs (selection_key, selection, mode, updated_after, started_at, state)
                VALUES (?, ?, ?, ?, ?, 'planning')
                """, arguments: [identity, selection, mode, updatedAfter, ISOTime.format(milliseconds: now)])
            return RunRecord(id: db.lastInsertedRowID, mode: mode, updatedAfter: updatedAfter, startedAt: now, state: "planning")
        }
    }

    /// Stores a run's plan and moves it to `fetching`, in one transaction (a crash while planning re-plans).
    func savePlan(runID: Int64, windows: [PlannedWindow], cap: Int, countedEvents: Int) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM windows WHERE run_id = ?", arguments: [runID])
            for window in windows {
                try insert(window, runID: runID, db)
            }
            try db.execute(sql: "UPDATE runs SET state = 'fetching', cap = ?, counted_events = ? WHERE id = ?",
                           arguments: [cap, countedEvents, runID])
        }
    }

    /// Windows of a run still to fetch, in time order.
    func plannedWindows(runID: Int64) throws -> [WindowRecord] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM windows WHERE run_id = ? AND state = 'planned' ORDER BY start_ms, end_ms",
                             arguments: [runID]).map(Self.window)
        }
    }

    /// Windows of a run already fetched, with their events and bytes.
    func fetchedTotals(runID: Int64) throws -> (windows: Int, events: Int, bytes: Int) {
        try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*) AS n, coalesce(sum(event_count), 0) AS e, coalesce(sum(bytes), 0) AS b FROM pages WHERE run_id = ?",
                                       arguments: [runID])!
            return try (row.decode(forColumn: "n"), row.decode(forColumn: "e"), row.decode(forColumn: "b"))
        }
    }

    /// Replaces a window by smaller ones (it matched more than the cap).
    func split(_ window: WindowRecord, runID: Int64, into parts: [PlannedWindow]) throws -> [WindowRecord] {
        try queue.write { db in
            try db.execute(sql: "UPDATE windows SET state = 'split' WHERE id = ?", arguments: [window.id])
            return try parts.map { part in
                if let existing = try Row.fetchOne(db, sql: "SELECT * FROM windows WHERE run_id = ? AND start_ms = ? AND end_ms = ?",
                                                   arguments: [runID, part.start, part.end]) {
                    try db.execute(sql: "UPDATE windows SET state = 'planned', planned_count = ?, counted = ? WHERE id = ?",
                                   arguments: [part.count, part.counted, existing.decode(Int64.self, forColumn: "id")])
                    return try WindowRecord(id: existing.decode(forColumn: "id"), start: part.start, end: part.end, plannedCount: part.count,
                                            counted: part.counted)
                }
                return WindowRecord(id: try insert(part, runID: runID, db), start: part.start, end: part.end, plannedCount: part.count,
                                    counted: part.counted)
            }
        }
    }

    /// The fetched windows of a run whose expected count was a share of a wider window's
    /// (`counted` false), each with the events its page holds, in time order.
    func estimatedPages(runID: Int64) throws -> [(window: WindowRecord, events: Int)] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT windows.*, pages.event_count FROM windows JOIN pages ON pages.window_id = windows.id
                WHERE windows.run_id = ? AND windows.state = 'done' AND windows.counted = 0 ORDER BY start_ms, end_ms
                """, arguments: [runID]).map { row in try (Self.window(row), row.decode(forColumn: "event_count")) }
        }
    }

    /// Records the service's count of a fetched window. When its page holds fewer events, the
    /// page is forgotten and the window planned again, to be fetched against that count.
    func recount(_ window: WindowRecord, count: Int, pageEvents: Int) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE windows SET counted = 1, planned_count = ? WHERE id = ?", arguments: [count, window.id])
            if pageEvents < count {
                try db.execute(sql: "DELETE FROM pages WHERE window_id = ?", arguments: [window.id])
                try db.execute(sql: "UPDATE windows SET state = 'planned' WHERE id = ?", arguments: [window.id])
            }
        }
    }

    @discardableResult
    private func insert(_ window: PlannedWindow, runID: Int64, _ db: Database) throws -> Int64 {
        try db.execute(sql: "INSERT INTO windows (run_id, start_ms, end_ms, planned_count, counted, state) VALUES (?, ?, ?, ?, ?, 'planned')",
                       arguments: [runID, window.start, window.end, window.count, window.counted])
        return db.lastInsertedRowID
    }

    /// Records a durable page file and marks its window done, in one transaction with `notes`
    /// (what the page's events ask for next: see `noteDetails`).
    func recordPage(_ page: PageEntry, runID: Int64, window: WindowRecord, notes: (Database) throws -> Void = { _ in }) throws {
        try queue.write { db in
            try notes(db)
            try db.execute(sql: """
                INSERT INTO pages (run_id, window_id, file, url, http_status, event_count, bytes, stored_bytes, sha256,
                                   duration_ms, fetched_at, max_updated, generated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [runID, window.id, page.file, page.url, page.status, page.eventCount, page.bytes, page.storedBytes,
                                 page.sha256, page.durationMS, page.fetchedAt, page.maxUpdated, page.generated])
            try db.execute(sql: "UPDATE windows SET state = 'done' WHERE id = ?", arguments: [window.id])
        }
    }

    /// Closes a run. A completed run's high-water mark is what the next incremental run starts from.
    func finishRun(_ runID: Int64, state: String, highWaterMark: Int64?, message: String?, now: Int64) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE runs SET state = ?, high_water_mark = ?, message = ?, finished_at = ? WHERE id = ?",
                           arguments: [state, highWaterMark, message, ISOTime.format(milliseconds: now), runID])
        }
    }

    /// The newest `updated` among a run's pages, and the earliest moment the service answered one of them.
    func pageExtremes(runID: Int64) throws -> (maxUpdated: Int64?, earliestGenerated: Int64?) {
        try queue.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT max(max_updated) AS u, min(generated) AS g FROM pages WHERE run_id = ?",
                                       arguments: [runID])!
            return try (row.decode(forColumn: "u"), row.decode(forColumn: "g"))
        }
    }

    /// Remembers one request for `status`.
    func record(_ request: RequestRecord, runID: Int64, now: Int64) {
        try? queue.write { db in
            try db.execute(sql: "INSERT INTO requests (run_id, endpoint, http_status, bytes, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [runID, request.endpoint, request.status, request.bytes, Int(request.duration * 1000),
                                       ISOTime.format(milliseconds: now)])
        }
    }

    private static func run(_ row: Row) throws -> RunRecord {
        try RunRecord(id: row.decode(forColumn: "id"), mode: row.decode(forColumn: "mode"), updatedAfter: row.decode(forColumn: "updated_after"),
                      startedAt: ISOTime.parse(row.decode(forColumn: "started_at") as String) ?? 0, state: row.decode(forColumn: "state"),
                      highWaterMark: row.decode(forColumn: "high_water_mark"), cap: row.decode(forColumn: "cap"),
                      countedEvents: row.decode(forColumn: "counted_events"))
    }

    private static func window(_ row: Row) throws -> WindowRecord {
        try WindowRecord(id: row.decode(forColumn: "id"), start: row.decode(forColumn: "start_ms"), end: row.decode(forColumn: "end_ms"),
                         plannedCount: row.decode(forColumn: "planned_count"), counted: row.decode(forColumn: "counted"))
    }
}

/// A page ready to be recorded in the manifest.
struct PageEntry: Sendable {
    var file: String
    var url: String
    var status: Int
    var eventCount: Int
    var bytes: Int
    var storedBytes: Int
    var sha256: String
    var durationMS: Int
    var fetchedAt: String
    var maxUpdated: Int64?
    var generated: Int64?
}

import Foundation
import GRDB
import QuakeCatalog
import QuakeCommon

/// A quake waiting for its details.
struct PendingDetail: Sendable {
    var eventID: String
    var updated: Int64
    var attempts: Int
}

/// One detail fetched and archived, ready for the journal.
struct DetailRecord: Sendable {
    var eventID: String
    var updated: Int64
    var file: String
    var url: String
    var bytes: Int
    var sha256: String
    var contents: [Content]

    struct Content: Sendable {
        var request: ContentRequest
        var file: String?
        var bytes: Int?
        var reason: String?
    }
}

extension Journal {
    /// Notes which of a page's `events` want details under `policy` (in the transaction that
    /// records the page, so a crash keeps both or neither): a quake wanting them is queued when
    /// it is new or its `updated` moved; one that no longer does (no longer significant, or
    /// deleted) leaves the queue, and when details of it were archived a drop is archived after
    /// them, so that `index` removes them. With `none`, nothing is noted.
    static func noteDetails(of events: [QuakeEvent], policy: DetailPolicy, runID: Int64, now: String, _ db: Database) throws {
        guard policy != .none else { return }
        let queue = try db.cachedStatement(sql: """
            INSERT INTO detail_queue (event_id, updated, mag, sig, state, attempts) VALUES (?, ?, ?, ?, 'pending', 0)
            ON CONFLICT (event_id) DO UPDATE SET updated = excluded.updated, mag = excluded.mag, sig = excluded.sig,
                state = 'pending', attempts = 0, message = NULL
            WHERE excluded.updated > detail_queue.updated
            """)
        let find = try db.cachedStatement(sql: "SELECT updated FROM detail_queue WHERE event_id = ?")
        // Most quakes of a page want no details and never did: none to look for while the queue is empty.
        var anyQueued = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM detail_queue)") ?? false
        for event in events {
            if policy.wants(event) {
                try queue.execute(arguments: [event.id, event.updated, event.mag, event.sig])
                anyQueued = true
                continue
            }
            guard anyQueued else { continue }
            for id in event.allIds {
                guard let updated = try Int64.fetchOne(find, arguments: [id]), event.updated > updated else { continue }
                try db.execute(sql: "DELETE FROM detail_queue WHERE event_id = ?", arguments: [id])
                let archived = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM details WHERE event_id = ? AND file IS NOT NULL)", arguments: [id]) ?? false
                guard archived else { continue }
                let reason = event.isDeleted ? "deleted" : "no longer wanted (--details \(policy.rawValue))"
                try db.execute(sql: "INSERT INTO details (run_id, event_id, updated, drop_reason, fetched_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [runID, id, event.updated, reason, now])
            }
        }
    }

    /// The quakes waiting for details, biggest first (then most significant, then by id), at most `limit`.
    func pendingDetails(limit: Int) throws -> [PendingDetail] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT event_id, updated, attempts FROM detail_queue WHERE state = 'pending'
                ORDER BY mag IS NULL, mag DESC, sig IS NULL, sig DESC, event_id LIMIT ?
                """, arguments: [limit]).map { PendingDetail(eventID: $0["event_id"], updated: $0["updated"], attempts: $0["attempts"]) }
        }
    }

    /// How many quakes wait for details.
    func pendingDetailCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM detail_queue WHERE state = 'pending'") ?? 0 }
    }

    /// Records an archived detail and its files, and that the quake has its details for the
    /// version it was fetched for, in one transaction (the files are durable before).
    func recordDetail(_ record: DetailRecord, runID: Int64, now: String) throws {
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO details (run_id, event_id, updated, file, url, bytes, sha256, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [runID, record.eventID, record.updated, record.file, record.url, record.bytes, record.sha256, now])
            let detailID = db.lastInsertedRowID
            for (position, content) in record.contents.enumerated() {
                try db.execute(sql: """
                    INSERT INTO detail_contents (detail_id, position, product, name, url, file, bytes, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [detailID, position, content.request.product, content.request.name, content.request.url,
                                     content.file, content.bytes, content.reason])
            }
            try settle(record.eventID, updated: record.updated, state: "fetched", message: nil, db)
        }
    }

    /// The quake will get no details for this version: the service has none (`missing`: it
    /// answered 404 or 409), or they could not be had in several runs (`failed`). Its next
    /// version is asked for again.
    func giveUpDetail(_ eventID: String, updated: Int64, state: String, message: String) throws {
        try queue.write { db in try settle(eventID, updated: updated, state: state, message: message, db) }
    }

    /// A run tried and could not get the quake's details; after `maximumDetailAttempts` runs it is given up.
    func detailAttemptFailed(_ pending: PendingDetail, message: String) throws {
        try queue.write { db in
            if pending.attempts + 1 >= Self.maximumDetailAttempts {
                try settle(pending.eventID, updated: pending.updated, state: "failed", message: message, db)
            } else {
                try db.execute(sql: "UPDATE detail_queue SET attempts = attempts + 1, message = ? WHERE event_id = ? AND updated = ?",
                               arguments: [message, pending.eventID, pending.updated])
            }
        }
    }

    /// Runs in which a quake's details may fail before they are given up for its version.
    static let maximumDetailAttempts = 3

    /// Sets the queue state of a quake, unless a newer version is waiting.
    private func settle(_ eventID: String, updated: Int64, state: String, message: String?, _ db: Database) throws {
        try db.execute(sql: "UPDATE detail_queue SET state = ?, message = ? WHERE event_id = ? AND updated <= ?",
                       arguments: [state, message, eventID, updated])
    }
}

extension Archive {
    /// Every detail entry of `workspace`'s archive, in arrival order (see `ArchivedDetail`).
    public static func details(in workspace: Workspace) throws -> [ArchivedDetail] {
        guard let journal = try Journal.reader(of: workspace) else { return [] }
        return try journal.read { db in
            guard try db.tableExists("details") else { return [] }
            var contents: [Int64: [ArchivedDetail.Content]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM detail_contents ORDER BY detail_id, position") {
                let request = ContentRequest(product: row["product"], name: row["name"], url: row["url"])
                let file = (row["file"] as String?).map { workspace.root.appendingPathComponent($0) }
                contents[row["detail_id"], default: []].append(ArchivedDetail.Content(request: request, file: file, leftOutReason: row["reason"]))
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM details ORDER BY id").map { row in
                let id: Int64 = row["id"]
                return ArchivedDetail(sequence: id, eventID: row["event_id"], updated: row["updated"], fetchedAt: row["fetched_at"],
                                      file: (row["file"] as String?).map { workspace.root.appendingPathComponent($0) },
                                      dropReason: row["drop_reason"], contents: contents[id] ?? [])
            }
        }
    }
}

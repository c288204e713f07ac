import Foundation
import GRDB
import QuakeCommon

/// What the fetch journal says, for `status`.
public struct FetchStatus: Sendable, Codable, Equatable {
    /// The newest run, whatever its state.
    public var lastRun: Run?
    /// The high-water mark of the newest completed run (ms): where the next incremental run starts.
    public var highWaterMark: Int64?
    /// Pages in the archive and the features they hold.
    public var pages: Int
    public var archivedEvents: Int
    public var archivedBytes: Int
    /// Request statistics per endpoint, over every run.
    public var endpoints: [Endpoint]
    /// Quakes' details archived, and quakes waiting for theirs (`--details-per-run`, or a service in trouble).
    public var detailsArchived: Int
    public var detailsWaiting: Int

    /// A fetch run.
    public struct Run: Sendable, Codable, Equatable {
        public var id: Int64
        public var mode: String
        public var state: String
        public var startedAt: String
        public var finishedAt: String?
        public var message: String?
    }

    /// Requests to one endpoint (`count`, `query`, `detail` or `content`).
    public struct Endpoint: Sendable, Codable, Equatable {
        public var endpoint: String
        public var requests: Int
        /// Attempts that got no usable answer (timeouts, 5xx, 429, …).
        public var failures: Int
        public var meanMilliseconds: Int
        public var p95Milliseconds: Int
        public var bytes: Int
    }

    /// Reads the journal of `workspace`; `nil` when nothing was ever fetched.
    public static func read(_ workspace: Workspace) throws -> FetchStatus? {
        guard let journal = try Journal.reader(of: workspace) else { return nil }
        return try journal.read { db in
            let last = try Row.fetchOne(db, sql: "SELECT * FROM runs ORDER BY id DESC LIMIT 1").map {
                try Run(id: $0.decode(forColumn: "id"), mode: $0.decode(forColumn: "mode"), state: $0.decode(forColumn: "state"),
                        startedAt: $0.decode(forColumn: "started_at"), finishedAt: $0.decode(forColumn: "finished_at"),
                        message: $0.decode(forColumn: "message"))
            }
            let mark = try Int64.fetchOne(db, sql: "SELECT high_water_mark FROM runs WHERE state = 'done' ORDER BY id DESC LIMIT 1")
            let totals = try Row.fetchOne(db, sql: "SELECT count(*) AS n, coalesce(sum(event_count), 0) AS e, coalesce(sum(stored_bytes), 0) AS b FROM pages")!
            var endpoints: [Endpoint] = []
            for name in try String.fetchAll(db, sql: "SELECT DISTINCT endpoint FROM requests ORDER BY endpoint") {
                let durations = try Int.fetchAll(db, sql: "SELECT duration_ms FROM requests WHERE endpoint = ? ORDER BY duration_ms", arguments: [name])
                let row = try Row.fetchOne(db, sql: """
                    SELECT count(*) AS n, sum(http_status != 200) AS failed, sum(bytes) AS bytes FROM requests WHERE endpoint = ?
                    """, arguments: [name])!
                let p95 = durations.isEmpty ? 0 : durations[min(durations.count - 1, Int(Double(durations.count) * 0.95))]
                try endpoints.append(Endpoint(endpoint: name, requests: row.decode(forColumn: "n"), failures: row.decode(forColumn: "failed"),
                                              meanMilliseconds: durations.isEmpty ? 0 : durations.reduce(0, +) / durations.count,
                                              p95Milliseconds: p95, bytes: row.decode(forColumn: "bytes")))
            }
            let details = try db.tableExists("details")
            let archived = details ? try Int.fetchOne(db, sql: "SELECT count(*) FROM details WHERE file IS NOT NULL") ?? 0 : 0
            let waiting = details ? try Int.fetchOne(db, sql: "SELECT count(*) FROM detail_queue WHERE state = 'pending'") ?? 0 : 0
            return try FetchStatus(lastRun: last, highWaterMark: mark, pages: totals.decode(forColumn: "n"),
                                   archivedEvents: totals.decode(forColumn: "e"), archivedBytes: totals.decode(forColumn: "b"), endpoints: endpoints,
                                   detailsArchived: archived, detailsWaiting: waiting)
        }
    }
}

import Foundation
import GRDB
import QuakeCatalog
import QuakeCommon
import QuakePublish
import QuakeSQLite

/// One recorded run of a command, for `status`.
public struct RecordedRun: Sendable, Codable, Equatable {
    public var id: Int64
    public var command: String
    public var startedAt: String
    public var finishedAt: String?
    /// The stage it was in last: `fetch`, `index`, `export`, `switch` (the bundle made current), `publish` (to a store), or `done`.
    public var stage: String
    /// `ok`, `nothing changed`, `failed`, `temporary failure`, `data error`, `running`, or `interrupted` (killed).
    public var outcome: String
    public var exitCode: Int?
    public var eventsFetched: Int
    public var eventsChanged: Int
    public var rejected: Int
    public var bundleVersion: String?
    public var message: String?

    /// The newest recorded runs of `workspace`, newest first.
    public static func recent(in workspace: Workspace, limit: Int = 10) throws -> [RecordedRun] {
        try RunHistory.recent(workspace, limit: limit)
    }
}

/// A publish as the run history recorded it.
public struct RecordedPublish: Sendable, Codable, Equatable {
    /// When it ended.
    public var at: String
    public var summary: PublishSummary
}

/// The run history in `<workspace>/runs.sqlite`: every bake and stage command, with its stage
/// while it runs (so a killed run shows where it died) and its outcome when it ends.
struct RunHistory {
    private let queue: DatabasePool

    init(workspace: Workspace) throws {
        try workspace.create()
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        queue = try DatabasePool(path: workspace.runsPath.path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    command TEXT NOT NULL,
                    started_at TEXT NOT NULL,
                    finished_at TEXT,
                    stage TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    exit_code INTEGER,
                    events_fetched INTEGER NOT NULL DEFAULT 0,
                    events_changed INTEGER NOT NULL DEFAULT 0,
                    rejected INTEGER NOT NULL DEFAULT 0,
                    bundle_version TEXT,
                    message TEXT
                )
                """)
        }
        migrator.registerMigration("v2 publishes") { db in
            try db.execute(sql: """
                CREATE TABLE publishes (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL,
                    finished_at TEXT NOT NULL,
                    summary TEXT NOT NULL
                )
                """)
        }
        try migrator.migrate(queue)
    }

    /// Records what a publish of run `runID` did (its summary as JSON).
    func recordPublish(_ runID: Int64, _ summary: PublishSummary) throws {
        let json = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO publishes (run_id, finished_at, summary) VALUES (?, ?, ?)", arguments: [runID, Self.now(), json])
        }
    }

    /// The newest recorded publish, if any (only reads).
    static func lastPublish(_ workspace: Workspace) throws -> RecordedPublish? {
        guard let queue = try readOnly(workspace) else { return nil }
        return try queue.read { db -> RecordedPublish? in
            guard try db.tableExists("publishes"),
                  let row = try Row.fetchOne(db, sql: "SELECT finished_at, summary FROM publishes ORDER BY id DESC LIMIT 1") else { return nil }
            let text: String = try row.decode(forColumn: "summary")
            return RecordedPublish(at: try row.decode(forColumn: "finished_at"),
                                   summary: try JSONDecoder().decode(PublishSummary.self, from: Data(text.utf8)))
        }
    }

    /// Records the start of a run, and its end as interrupted should a signal end the process;
    /// returns its id.
    func begin(_ command: String) throws -> Int64 {
        let id = try queue.write { db in
            try db.execute(sql: "INSERT INTO runs (command, started_at, stage, outcome) VALUES (?, ?, 'starting', 'running')",
                           arguments: [command, Self.now()])
            return db.lastInsertedRowID
        }
        Interruption.onInterrupt { [self] code, note in
            try? finish(id, outcome: "interrupted", exitCode: code, eventsFetched: 0, eventsChanged: 0, rejected: 0,
                        bundleVersion: nil, message: note)
        }
        return id
    }

    /// Records the stage a run has reached.
    func stage(_ id: Int64, _ stage: String) throws {
        try queue.write { try $0.execute(sql: "UPDATE runs SET stage = ? WHERE id = ?", arguments: [stage, id]) }
    }

    /// Records how a run ended (an interrupted run keeps the stage it was in).
    func finish(_ id: Int64, outcome: String, exitCode: Int32, eventsFetched: Int, eventsChanged: Int, rejected: Int,
                bundleVersion: String?, message: String?) throws {
        try queue.write { db in
            try db.execute(sql: """
                UPDATE runs SET finished_at = ?, stage = CASE ? WHEN 'interrupted' THEN stage ELSE 'done' END, outcome = ?,
                    exit_code = ?, events_fetched = ?, events_changed = ?, rejected = ?, bundle_version = ?, message = ? WHERE id = ?
                """, arguments: [Self.now(), outcome, outcome, exitCode, eventsFetched, eventsChanged, rejected, bundleVersion, message, id])
        }
    }

    /// Records a run that ended with `error`: its outcome and exit code from the error's exit status.
    func finish(_ id: Int64, failedWith error: Error, eventsFetched: Int = 0, eventsChanged: Int = 0, rejected: Int = 0,
                bundleVersion: String? = nil) throws {
        let status = (error as? ExitStatusProviding)?.exitStatus ?? .failure
        let outcome = status == .temporaryFailure ? "temporary failure" : (status == .dataError ? "data error" : "failed")
        try finish(id, outcome: outcome, exitCode: status.rawValue, eventsFetched: eventsFetched, eventsChanged: eventsChanged,
                   rejected: rejected, bundleVersion: bundleVersion, message: ErrorText.message(error))
    }

    /// The newest runs, newest first. A run that never finished and whose lock is gone was killed: `interrupted`.
    /// Only reads (no migration), so a reader never gets in a running bake's way.
    static func recent(_ workspace: Workspace, limit: Int = 10) throws -> [RecordedRun] {
        guard let queue = try readOnly(workspace) else { return [] }
        let lockHeld = WorkspaceLock.holder(of: workspace) != nil
        let rows = try queue.read { db -> [Row] in
            guard try db.tableExists("runs") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT * FROM runs ORDER BY id DESC LIMIT ?", arguments: [limit])
        }
        return try rows.enumerated().map { index, row in
            var outcome: String = try row.decode(forColumn: "outcome")
            if outcome == "running" && !(lockHeld && index == 0) { outcome = "interrupted" }
            return try RecordedRun(id: row.decode(forColumn: "id"), command: row.decode(forColumn: "command"),
                                   startedAt: row.decode(forColumn: "started_at"), finishedAt: row.decode(forColumn: "finished_at"),
                                   stage: row.decode(forColumn: "stage"), outcome: outcome, exitCode: row.decode(forColumn: "exit_code"),
                                   eventsFetched: row.decode(forColumn: "events_fetched"), eventsChanged: row.decode(forColumn: "events_changed"),
                                   rejected: row.decode(forColumn: "rejected"), bundleVersion: row.decode(forColumn: "bundle_version"),
                                   message: row.decode(forColumn: "message"))
        }
    }

    /// The history opened only to read (no migration), or `nil` when there is none yet.
    private static func readOnly(_ workspace: Workspace) throws -> (any DatabaseReader)? {
        guard FileManager.default.fileExists(atPath: workspace.runsPath.path) else { return nil }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try ReadOnlyDatabase.open(workspace.runsPath.path, configuration: configuration)
    }

    private static func now() -> String { ISOTime.format(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }
}

import Foundation
import GRDB
import QuakeCommon
import QuakeSQLite

/// The fetch journal (`archive/journal.sqlite`): the plan and state of every
/// fetch run, the manifest of archived pages, and request statistics.
///
/// It is the checkpoint that makes `fetch` resumable: a window is `done` only
/// once its page file is durable and its manifest row committed, in one transaction.
struct Journal {
    let queue: DatabasePool
    let workspace: Workspace

    /// Opens (creating or migrating) the journal of `workspace`.
    init(workspace: Workspace) throws {
        self.workspace = workspace
        try FileManager.default.createDirectory(at: workspace.archiveDirectory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        queue = try DatabasePool(path: workspace.journalPath.path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    /// The journal for reading only, if it exists (read paths must not create, migrate or
    /// write one: `status` answers on a read-only workspace and a full disk).
    static func reader(of workspace: Workspace) throws -> DatabaseQueue? {
        guard FileManager.default.fileExists(atPath: workspace.journalPath.path) else { return nil }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try ReadOnlyDatabase.open(workspace.journalPath.path, configuration: configuration)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE runs (
                    id INTEGER PRIMARY KEY,
                    selection_key TEXT NOT NULL,      -- identity of the selection, for incremental sync
                    selection TEXT NOT NULL,          -- the selection, JSON, for people
                    mode TEXT NOT NULL,               -- full | incremental
                    updated_after INTEGER,            -- ms; incremental runs only
                    started_at TEXT NOT NULL,
                    finished_at TEXT,
                    state TEXT NOT NULL,              -- planning | fetching | done | failed | abandoned
                    cap INTEGER,                      -- the service's maxAllowed, learnt while planning
                    high_water_mark INTEGER,          -- max `updated` seen by this run and those before it
                    message TEXT
                );
                CREATE TABLE windows (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL REFERENCES runs(id),
                    start_ms INTEGER NOT NULL,
                    end_ms INTEGER NOT NULL,
                    planned_count INTEGER NOT NULL,
                    state TEXT NOT NULL,              -- planned | done | split
                    UNIQUE (run_id, start_ms, end_ms)
                );
                CREATE TABLE pages (
                    id INTEGER PRIMARY KEY,           -- arrival order
                    run_id INTEGER NOT NULL REFERENCES runs(id),
                    window_id INTEGER NOT NULL UNIQUE REFERENCES windows(id),
                    file TEXT NOT NULL,               -- relative to the workspace
                    url TEXT NOT NULL,
                    http_status INTEGER NOT NULL,
                    event_count INTEGER NOT NULL,
                    bytes INTEGER NOT NULL,           -- body bytes as received (decompressed)
                    stored_bytes INTEGER NOT NULL,    -- gzip file bytes
                    sha256 TEXT NOT NULL,             -- of the body
                    duration_ms INTEGER NOT NULL,
                    fetched_at TEXT NOT NULL,
                    max_updated INTEGER,              -- newest `updated` in the page
                    generated INTEGER                 -- the service's metadata.generated
                );
                CREATE TABLE requests (
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL,
                    endpoint TEXT NOT NULL,           -- count | query
                    http_status INTEGER NOT NULL,     -- 0 when no answer (timeout, disconnect)
                    bytes INTEGER NOT NULL,
                    duration_ms INTEGER NOT NULL,
                    at TEXT NOT NULL
                );
                """)
        }
        migrator.registerMigration("v2: estimated windows") { db in
            // 1 when planned_count is the service's count of exactly this window; 0 when it is
            // a share of a wider window's count (see WindowPlanner).
            try db.execute(sql: "ALTER TABLE windows ADD COLUMN counted INTEGER NOT NULL DEFAULT 1")
        }
        migrator.registerMigration("v3: counted total") { db in
            // The events the planning count said the whole range matched: a run's pages are held
            // against it (see `FetchRun.auditEstimatedWindows`).
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN counted_events INTEGER")
        }
        migrator.registerMigration("v4: details") { db in
            try db.execute(sql: """
                CREATE TABLE detail_queue (               -- the quakes that want details, and what was had
                    event_id TEXT PRIMARY KEY NOT NULL,   -- the id a page named the quake by
                    updated INTEGER NOT NULL,             -- the newest version wanting details (ms)
                    mag REAL,                             -- biggest first
                    sig INTEGER,
                    state TEXT NOT NULL,                  -- pending | fetched | missing | failed
                    attempts INTEGER NOT NULL DEFAULT 0,  -- runs that tried and could not
                    message TEXT                          -- why missing or failed
                ) WITHOUT ROWID;
                CREATE TABLE details (                    -- the archive's details, in arrival order: what index reads
                    id INTEGER PRIMARY KEY,
                    run_id INTEGER NOT NULL,
                    event_id TEXT NOT NULL,
                    updated INTEGER NOT NULL,             -- the version it was fetched for (ms)
                    file TEXT,                            -- the detail answer as received, gzip; NULL: a drop
                    url TEXT,
                    bytes INTEGER,                        -- body bytes as received
                    sha256 TEXT,
                    drop_reason TEXT,                     -- why the quake's details are no longer wanted
                    fetched_at TEXT NOT NULL
                );
                CREATE INDEX details_event ON details(event_id);
                CREATE TABLE detail_contents (            -- the content files of each detail
                    detail_id INTEGER NOT NULL REFERENCES details(id),
                    position INTEGER NOT NULL,
                    product TEXT NOT NULL,                -- product type
                    name TEXT NOT NULL,                   -- the file's path in its product
                    url TEXT NOT NULL,
                    file TEXT,                            -- as received, gzip; NULL when left out
                    bytes INTEGER,
                    reason TEXT,                          -- why it was left out
                    PRIMARY KEY (detail_id, position)
                ) WITHOUT ROWID;
                """)
        }
        return migrator
    }
}

/// One page in the archive, as `index` reads it.
public struct ArchivedPage: Sendable, Hashable {
    /// Arrival order: pages are indexed in this order.
    public let sequence: Int64
    /// The gzip page file.
    public let file: URL
    /// SHA-256 of the page body (decompressed), the page's identity.
    public let sha256: String
    /// The request that produced it.
    public let requestURL: String
    /// Features in the page.
    public let eventCount: Int
}

/// Read access to the raw page archive.
public enum Archive {
    /// Every archived page of `workspace`, in arrival order. Empty when nothing was fetched.
    public static func pages(in workspace: Workspace) throws -> [ArchivedPage] {
        guard let journal = try Journal.reader(of: workspace) else { return [] }
        return try journal.read { db in
            try Row.fetchAll(db, sql: "SELECT id, file, sha256, url, event_count FROM pages ORDER BY id").map { row in
                try ArchivedPage(sequence: row.decode(forColumn: "id"), file: workspace.root.appendingPathComponent(row.decode(forColumn: "file") as String),
                                 sha256: row.decode(forColumn: "sha256"), requestURL: row.decode(forColumn: "url"),
                                 eventCount: row.decode(forColumn: "event_count"))
            }
        }
    }
}

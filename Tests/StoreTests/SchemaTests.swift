import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// The store's public contract: names, types, indexes, version, journal mode.
@Suite struct SchemaTests {
    static func built() throws -> StoreFixture {
        let f = StoreFixture()
        try f.index([.file(TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz"))])
        return f
    }

    @Test func theTablesAndColumnsAreTheContract() throws {
        let f = try Self.built()
        let columns = try f.sql("SELECT name || ' ' || type FROM pragma_table_info('events')")
        for column in ["id TEXT", "ids TEXT", "sources TEXT", "types TEXT", "time INTEGER", "updated INTEGER",
                       "longitude REAL", "latitude REAL", "depth_km REAL", "mag REAL", "mag_type TEXT", "place TEXT",
                       "status TEXT", "event_type TEXT", "net TEXT", "code TEXT", "felt INTEGER", "cdi REAL", "mmi REAL",
                       "alert TEXT", "tsunami INTEGER", "sig INTEGER", "nst INTEGER", "dmin REAL", "rms REAL", "gap REAL",
                       "title TEXT", "url TEXT", "geom POINT"] {
            #expect(columns.contains(column), "events.\(column)")
        }
        #expect(try f.value("SELECT pk FROM pragma_table_info('events') WHERE name = 'id'") == "1")
        #expect(try f.sql("SELECT name FROM pragma_table_info('event_ids')") == ["id", "preferred"])
        #expect(try f.sql("SELECT name FROM pragma_table_info('tombstones')") == ["id", "ids", "updated", "source", "recorded_at"])
        #expect(try f.sql("SELECT name FROM pragma_table_info('rejects')") == ["id", "source", "position", "reason", "raw", "recorded_at"])
        #expect(try Set(f.sql("SELECT name FROM pragma_table_info('sources')")).isSuperset(of: ["name", "sha256", "events", "rejects", "indexed_at"]))
        #expect(try f.sql("SELECT name || ' ' || type FROM pragma_table_info('details')")
                == ["id TEXT", "updated INTEGER", "event_updated INTEGER", "fetched_at TEXT", "archive INTEGER", "summary TEXT"])
        #expect(try f.value("SELECT pk FROM pragma_table_info('details') WHERE name = 'id'") == "1")
        let indexes = try Set(f.sql("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'"))
        #expect(indexes.isSuperset(of: ["events_time", "events_mag", "events_updated"]))
        #expect(try f.value("SELECT sql FROM sqlite_master WHERE name = 'idx_events_geom'").contains("rtree(pkid, xmin, xmax, ymin, ymax)"))
        // The lists are comma-wrapped like USGS.
        #expect(try f.value("SELECT count(*) FROM events WHERE ids NOT LIKE ',%,' OR types NOT LIKE ',%,'") == "0")
    }

    @Test func versionJournalAndTriggersAreInPlaceAfterABulkBuild() throws {
        let f = try Self.built()
        #expect(try f.value("PRAGMA user_version") == "2")
        #expect(try f.value("PRAGMA journal_mode") == "wal")
        let triggers = try Set(f.sql("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"))
        #expect(triggers == ["ggi_events_geom", "ggu_events_geom", "gii_events_geom", "giu_events_geom", "gid_events_geom",
                             "tmi_events_geom", "tmu_events_geom", "tmd_events_geom"])
    }

    @Test func aStoreFromANewerQuakeBakeIsRefusedWithAClearMessage() throws {
        let f = try Self.built()
        _ = try f.sql("PRAGMA user_version = 7;")
        let before = try f.snapshot()
        #expect { try f.index(quake("x", updated: 1)) } throws: { error in
            "\(error)".contains("schema version 7") && "\(error)".contains(f.store.path)
        }
        #expect { try EventStore(opening: f.store) } throws: { "\($0)".contains("schema version 7") }
        #expect(try f.snapshot() == before)
    }

    @Test func anEmptyDatabaseFileIsMigratedToTheCurrentSchema() throws {
        let f = StoreFixture()
        try FileManager.default.createDirectory(at: f.store.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: f.store.path, contents: Data()))
        let summary = try f.index([.file(TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz"))])
        #expect(!summary.builtAfresh && summary.counts.inserted == 456)
        #expect(try f.value("PRAGMA user_version") == "2")
        #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
    }

    /// A store of schema version 1 (before quakes' details) is brought to version 2 by the next
    /// index: its `details` table made as a fresh store's, nothing else touched.
    @Test func aVersion1StoreIsMigratedToVersion2() throws {
        let f = try Self.built()
        let fresh = try f.sql("SELECT type || ' ' || name || ' ' || coalesce(sql, '-') FROM sqlite_master WHERE name = 'details'")
        _ = try f.sql("DROP TABLE details; PRAGMA user_version = 1;")
        let events = try f.sql("SELECT id || ' ' || updated FROM events ORDER BY id")
        _ = try f.index(quake("x", updated: 1))
        #expect(try f.value("PRAGMA user_version") == "2")
        #expect(try f.sql("SELECT type || ' ' || name || ' ' || coalesce(sql, '-') FROM sqlite_master WHERE name = 'details'") == fresh)
        #expect(try f.sql("SELECT id || ' ' || updated FROM events WHERE id <> 'x' ORDER BY id") == events)
    }

    /// A fresh build loads `events` before `id` is its primary key and makes it one at the end
    /// (`StoreSchema.keyEventIDs`): the store it leaves has the schema the migrations make.
    @Test func aFreshBuildHasTheSchemaTheMigrationsMake() throws {
        let schema = "SELECT type || ' ' || name || ' ' || tbl_name || ' ' || coalesce(sql, '-') FROM sqlite_master ORDER BY type, name"
        let built = try Self.built()
        #expect(try built.value("PRAGMA integrity_check") == "ok")
        #expect(try built.value("SELECT origin || ' ' || \"unique\" FROM pragma_index_list('events') WHERE name = 'sqlite_autoindex_events_1'") == "pk 1")
        let migrated = StoreFixture()
        try FileManager.default.createDirectory(at: migrated.store.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: migrated.store.path, contents: Data()))
        try migrated.index([.file(TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz"))])
        #expect(try built.sql(schema) == migrated.sql(schema))
        #expect(try built.sql(schema).contains { $0.contains("id TEXT PRIMARY KEY NOT NULL") })
        // The key holds: a second row with a stored id is refused.
        let id = try built.value("SELECT id FROM events LIMIT 1")
        #expect(throws: (any Error).self) { try built.sql("INSERT INTO events (id, ids, sources, types, time, updated, longitude, latitude) SELECT id, ids, sources, types, time, updated, longitude, latitude FROM events WHERE id = '\(id)'") }
    }

    @Test func opensReadOnlyOnlyAnExistingStore() throws {
        let f = StoreFixture()
        #expect { try EventStore(opening: f.store) } throws: { "\($0)".contains("no store yet") }
        #expect(!FileManager.default.fileExists(atPath: f.store.path))
    }

    @Test func statisticsDescribeTheStore() throws {
        let f = StoreFixture()
        var blast = quake("q2", updated: 20, mag: 1.5)
        blast.eventType = "quarry blast"
        blast.status = "automatic"
        blast.time = -5
        try f.index([f.page([quake("q1", updated: 10, mag: -0.4), blast, quake("q3", updated: 30, mag: nil), deletion("q4", updated: 40)]),
                     f.file("bad.csv", "nonsense")])
        let s = try f.read { try $0.statistics() }
        #expect(s.events == 3 && s.tombstones == 1 && s.rejects == 1 && s.sources == 2)
        #expect(s.highWaterMark == 40)
        #expect(s.eventTypes == ["earthquake": 2, "quarry blast": 1])
        #expect(s.statuses == ["reviewed": 2, "automatic": 1])
        #expect(s.timeRange == -5...1_600_000_000_000)
        #expect(s.magnitudeRange == -0.4...1.5)
        #expect(s.lastIndexed != nil)
    }

    @Test func archivePagesAlreadyIndexedAreSkippedWithoutBeingRead() throws {
        let f = StoreFixture()
        let text = GeoJSONWriter.collection([quake("p1", updated: 1)], metadata: PageMetadata(status: 200, count: 1))
        let file = f.directory.path("page-1.geojson.gz")
        try Gzip.compress(Data(text.utf8)).write(to: file)
        let page = IndexSource.archivePage(sequence: 1, file: file, sha256: SHA256.hex(Data(text.utf8)),
                                           requestURL: "https://example.org/query?format=geojson", eventCount: 1)
        #expect(try f.index([page]).counts.inserted == 1)
        #expect(try f.value("SELECT kind || ' ' || name FROM sources") == "page archive page 1 (https://example.org/query?format=geojson)")
        try FileManager.default.removeItem(at: file)
        #expect(try f.index([page]).sources[0].outcome == .alreadyIndexed)
    }

    @Test func progressCountsEventsUpToTheTotal() throws {
        let f = StoreFixture()
        let recorder = ProgressRecorder()
        let first = try f.page((1...5000).map { quake("e\($0)", updated: 1) })
        let sources = [first].map { IndexSource.archivePage(sequence: 1, file: $0.file, sha256: "x", requestURL: "u", eventCount: 5000) }
        _ = try Indexer.index(sources, store: f.store, progress: recorder, logger: quiet)
        let snapshots = recorder.snapshots
        #expect(snapshots.last?.done == 5000 && snapshots.last?.total == 5000 && snapshots.last?.unit == "events")
        #expect(snapshots.map(\.done) == snapshots.map(\.done).sorted())
        #expect(snapshots.count >= 2 && recorder.finished)
    }
}

/// Keeps every progress snapshot.
final class ProgressRecorder: ProgressSink, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [ProgressSnapshot] = []
    private var ended = false

    func update(_ snapshot: ProgressSnapshot) { lock.withLock { kept.append(snapshot) } }
    func finish() { lock.withLock { ended = true } }
    var snapshots: [ProgressSnapshot] { lock.withLock { kept } }
    var finished: Bool { lock.withLock { ended } }
}

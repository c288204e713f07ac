import Foundation
import GRDB
import Logging
import QuakeBundles
import QuakeCatalog
import QuakeSynthetic
import Testing
import TestSupport

/// An export over a current bundle reads only the store rows whose (id, updated) changed,
/// and still makes the bundle a full export makes, byte for byte.
@Suite struct IncrementalReadTests {
    static let sample = "feed-all_week-2020-06.geojson.gz"

    /// Exports into `out`, then the same store from scratch into `full`; expects the same bytes.
    private func exportAndCompare(_ store: TestStore, _ dir: TemporaryDirectory, logger: Logger = ExportHelpers.silentLogger,
                                  _ configure: @escaping (inout ExportOptions) -> Void = { _ in }) throws -> ExportSummary {
        let incremental = try ExportHelpers.export(store, to: dir.path("bundles"), logger: logger, configure)
        let full = try ExportHelpers.export(store, to: dir.path("full-\(UUID().uuidString)")) { configure(&$0); $0.reuseTiles = false }
        #expect(incremental.changed && full.rowsRead == full.events)
        #expect(ExportHelpers.differences(incremental.directory, full.directory) == [])
        return incremental
    }

    /// The event of the smallest id gets a newer version, its magnitude 0.1 higher.
    private static func reviseFirstEvent(_ store: TestStore) throws {
        var event = try #require(try store.events().values.min { $0.id < $1.id })
        event.updated += 1
        event.mag = (event.mag ?? 1) + 0.1
        try store.upsert([event])
    }

    @Test func aLateVersionBelowTheHighWaterMarkIsRead() throws {
        let dir = TemporaryDirectory("incremental-late")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        #expect(first.rowsRead == first.events)
        // The oldest version in the store gets a newer one that is still far older than the high-water mark.
        var event = try #require(try store.events().values.min { ($0.updated, $0.id) < ($1.updated, $1.id) })
        event.updated += 1
        event.mag = (event.mag ?? 1) + 2
        try store.upsert([event])
        let log = RecordedLog()
        let second = try exportAndCompare(store, dir, logger: log.logger)
        #expect(second.rowsRead == 1 && second.highWaterMark == first.highWaterMark)
        #expect(second.bundleVersion != first.bundleVersion)
        // The app database took the unchanged rows from the previous one.
        #expect(log.messages.contains { $0.contains("patched the previous bundle's file") && $0.contains("kept it (still compact)") }, "\(log.messages)")
        #expect(log.messages.contains { $0.contains("quakes.mbtiles patched") }, "\(log.messages)")
    }

    /// A current bundle whose files were damaged after publishing (same sizes, other bytes) is not
    /// built upon: its tiles are not copied into the next version, nor its app database patched;
    /// the export says so and makes the bundle a full export makes. (The files' stamps, kept so
    /// that an unchanged file is not hashed again, are there: the writes move them.)
    @Test func aDamagedCurrentBundleIsNotBuiltUpon() throws {
        let dir = TemporaryDirectory("incremental-damaged")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        let stamps = try String(contentsOf: dir.path("bundles/.export-cache/published-files.txt"), encoding: .utf8)
        #expect(stamps.hasPrefix(first.directory.lastPathComponent + "\t") && stamps.contains("\nquakes.pmtiles\t"), "\(stamps)")
        for file in ["quakes.pmtiles", "quakes.sqlite"] {
            let url = first.directory.appendingPathComponent(file)
            var bytes = try Data(contentsOf: url)
            bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 4096), with: Data(repeating: 0x51, count: 4096))
            try bytes.write(to: url)
        }
        try Self.reviseFirstEvent(store)
        let log = RecordedLog()
        let second = try exportAndCompare(store, dir, logger: log.logger)
        #expect(second.reusedTiles == 0 && second.rowsRead == 1, "the event cache is sound: only the changed row is read")
        for file in ["quakes.pmtiles", "quakes.sqlite"] {
            #expect(log.messages.contains { $0.contains("\(first.directory.path)/\(file) is not the file its manifest lists") }, "\(log.messages)")
        }
        #expect(!log.messages.contains { $0.contains("quakes.mbtiles is not the file") })
    }

    /// Stamps taken more than a day before, and a stamps file that is not one an export wrote
    /// (here with a megabyte of other text after it), are not used: the current bundle's files
    /// are hashed, so one damaged with its size and modification time (to the nanosecond) kept
    /// is still not built upon.
    @Test(arguments: ["a day old", "foreign"]) func oldOrForeignStampsOnlyCostHashing(stamps kind: String) throws {
        let dir = TemporaryDirectory("incremental-stamps")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        let url = first.directory.appendingPathComponent("quakes.pmtiles")
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 4096), with: Data(repeating: 0x51, count: 4096))
        try bytes.write(to: url)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        let stamps = dir.path("bundles/.export-cache/published-files.txt")
        var lines = try String(contentsOf: stamps, encoding: .utf8).components(separatedBy: "\n")
        if kind == "foreign" {
            lines.append(String(repeating: "x", count: 1 << 20))
        } else {
            let header = lines[0].components(separatedBy: "\t")
            lines[0] = header[0] + "\t" + String(try #require(Int64(header[1])) - 86_401)
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: stamps)
        try Self.reviseFirstEvent(store)
        let log = RecordedLog()
        _ = try exportAndCompare(store, dir, logger: log.logger)
        #expect(log.messages.contains { $0.contains("\(first.directory.path)/quakes.pmtiles is not the file its manifest lists") }, "\(log.messages)")
    }

    @Test func mergesDeletionsAndEventsLeavingOrEnteringTheSelectionMatchAFullExport() throws {
        let dir = TemporaryDirectory("incremental-merge")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let selection: (inout ExportOptions) -> Void = { $0.selection.minMagnitude = 1.5 }
        let first = try ExportHelpers.export(store, to: dir.path("bundles"), selection)
        let all = try store.events().values.filter { $0.mag != nil }.sorted { $0.id < $1.id }
        let source = Dictionary(uniqueKeysWithValues: CatalogFile.read(TestData.usgs(Self.sample)).events.map { ($0.id, $0) })
        let inside = all.filter { $0.mag! >= 1.5 }, outside = all.filter { $0.mag! < 1.5 }
        #expect(inside.count > 100 && outside.count > 100)

        // A merge: `joined` goes, `keeper` takes its id and a newer version.
        let (joined, keeper) = (inside[10], inside[20])
        var merged = source[keeper.id]!
        merged.ids = [keeper.id, joined.id]
        merged.updated += 5_000
        try store.remove([joined.id])
        // One event leaves the selection, one enters it, one is deleted, one is new.
        var leaving = source[inside[30].id]!, entering = source[outside[5].id]!
        leaving.mag = 1.0
        leaving.updated += 1
        entering.mag = 4.4
        entering.updated += 1
        var fresh = source[inside[40].id]!
        (fresh.id, fresh.ids, fresh.longitude) = ("qbfresh1", ["qbfresh1"], fresh.longitude! * 0.5)
        try store.upsert([merged, leaving, entering, fresh])
        try store.delete([inside[50].id], updated: all.map(\.updated).max()! + 10)

        let second = try exportAndCompare(store, dir, selection)
        #expect(second.rowsRead == 4)
        #expect(second.events == first.events - 3 + 2)
        let ids = Set(try store.events().values.filter { ($0.mag ?? 0) >= 1.5 }.map(\.id))
        #expect(ids.contains(entering.id) && ids.contains("qbfresh1") && !ids.contains(leaving.id) && !ids.contains(joined.id))
    }

    /// A previous app database whose `events` table was declared otherwise (an older quake-bake's,
    /// here without one NOT NULL) is not patched: the rows would not go across as they are, and
    /// the new file would not be the one a full export makes.
    @Test func aPreviousAppDatabaseOfAnotherSchemaIsNotPatched() throws {
        let dir = TemporaryDirectory("incremental-schema")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        let queue = try DatabaseQueue(path: first.directory.appendingPathComponent("quakes.sqlite").path)
        try queue.writeWithoutTransaction { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version")!
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, 'ids TEXT NOT NULL', 'ids TEXT') WHERE name = 'events'")
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        try queue.close()
        try Self.reviseFirstEvent(store)
        let log = RecordedLog()
        let second = try exportAndCompare(store, dir, logger: log.logger)
        #expect(second.rowsRead == 1)
        #expect(log.messages.contains { $0.contains("staged rows and indexes (from the store)") }, "\(log.messages)")
    }

    /// An event cache whose columns pass a megabyte (140,000 events; the writer adds such a column
    /// a megabyte at a time, the reader takes it in one run) is read back, and the next export reads
    /// only the row that changed. From ce0885c to 884c048 such a cache failed its checksum and every
    /// export was a full one: the samples' tables are far smaller.
    @Test func aCacheOfColumnsOverAMegabyteIsReadBack() throws {
        let dir = TemporaryDirectory("incremental-big-cache")
        var catalog = SyntheticCatalog(seed: 13)
        let events = catalog.events(140_000)
        let store = try TestStore(at: dir.path("store/quakes.sqlite"), events: events)
        let configure: (inout ExportOptions) -> Void = { $0.thinning.maxZoom = 3; $0.attributes = [.id, .mag, .time, .minzoom] }
        let first = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        #expect(first.events == events.count && first.rowsRead == first.events)
        var event = try #require(events.min { $0.id < $1.id })
        event.updated += 1
        event.mag = (event.mag ?? 1) + 0.1
        try store.upsert([event])
        let log = RecordedLog()
        let second = try ExportHelpers.export(store, to: dir.path("bundles"), logger: log.logger, configure)
        #expect(second.rowsRead == 1 && second.changed)
        #expect(log.messages.contains { $0.contains("read the event cache (\(events.count) events)") }, "\(log.messages.prefix(3))")
        #expect(!log.messages.contains { $0.contains("could not be read") }, "\(log.messages.prefix(3))")
    }

    @Test func manyChangesReadTheWholeStore() throws {
        let dir = TemporaryDirectory("incremental-many")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        _ = try ExportHelpers.export(store, to: dir.path("bundles"))
        let all = try store.events().values.sorted { $0.id < $1.id }
        let source = Dictionary(uniqueKeysWithValues: CatalogFile.read(TestData.usgs(Self.sample)).events.map { ($0.id, $0) })
        try store.upsert(all.enumerated().filter { $0.offset % 3 == 0 }.map { var e = source[$0.element.id]!; e.updated += 1; return e })
        let second = try exportAndCompare(store, dir)
        #expect(second.rowsRead == second.events)
    }

    @Test func aDamagedMissingOrForeignCacheMeansAFullRead() throws {
        let dir = TemporaryDirectory("incremental-cache")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        let cache = dir.path("bundles/.export-cache/events.bin")
        var bytes = try Data(contentsOf: cache)
        #expect(bytes.count > first.events * 40)
        var event = try #require(try store.events().values.min { $0.id < $1.id })

        func change() throws {
            event.updated += 1
            event.mag = (event.mag ?? 1) + 0.1
            try store.upsert([event])
        }
        // A flipped byte in the middle: the checksum refuses the file.
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: cache)
        try change()
        #expect(try exportAndCompare(store, dir).rowsRead == first.events)
        // The cache made by that export works again.
        try change()
        #expect(try exportAndCompare(store, dir).rowsRead == 1)
        // No cache.
        try FileManager.default.removeItem(at: cache)
        try change()
        #expect(try exportAndCompare(store, dir).rowsRead == first.events)
        // Other attributes: the cached table does not hold them.
        try change()
        let other = try exportAndCompare(store, dir) { $0.attributes = [.id, .mag, .time, .minzoom, .place] }
        #expect(other.rowsRead == other.events)
        // Other thinning options: the rows are read incrementally, the tiles all made anew.
        try change()
        let thinning = try exportAndCompare(store, dir) { $0.attributes = [.id, .mag, .time, .minzoom, .place]; $0.thinning.perCell = 2 }
        #expect(thinning.rowsRead == 1 && thinning.reusedTiles == 0)
    }
}

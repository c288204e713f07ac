import Foundation
import GRDB
import QuakeBundles
import QuakeCatalog
import Testing
import TestSupport

/// Same store content and options, same bytes; an incremental export equals a full one.
@Suite struct DeterminismTests {
    static let sample = "feed-all_week-2020-06.geojson.gz"

    @Test func rebuildingGivesByteIdenticalBundles() throws {
        let dir = TemporaryDirectory("determinism")
        let events = TestStore.newestPerID(CatalogFile.read(TestData.usgs(Self.sample)).events)
        let store = try TestStore(at: dir.path("a/store.sqlite"), events: events)
        // The same content inserted in the opposite order: other rowids, same content.
        let reversed = try TestStore(at: dir.path("b/store.sqlite"), events: events.reversed())
        let first = try ExportHelpers.export(store, to: dir.path("out1"))
        let second = try ExportHelpers.export(reversed, to: dir.path("out2"))
        let third = try ExportHelpers.export(store, to: dir.path("out3")) { $0.reuseTiles = false }
        #expect(first.bundleVersion == second.bundleVersion)
        #expect(ExportHelpers.differences(first.directory, second.directory, patchedFiles: false) == [])
        #expect(ExportHelpers.differences(first.directory, third.directory, patchedFiles: false) == [])
        #expect(try ExportHelpers.files(first.directory).count >= 14)
    }

    /// Changes a few events of the store the way a fetch + index would.
    static func change(_ store: TestStore) throws -> Int {
        let all = try store.events().values.sorted { $0.id < $1.id }
        let source = Dictionary(uniqueKeysWithValues: CatalogFile.read(TestData.usgs(sample)).events.map { ($0.id, $0) })
        var changed: [QuakeEvent] = []
        for (i, event) in all.enumerated() where i % 400 == 7 {
            var e = source[event.id]!
            e.updated += 60_000
            switch i % 3 {
            case 0: e.mag = (e.mag ?? 2) + 1.7
            case 1: e.longitude = max(-180, min(180, e.longitude! + 0.4)); e.latitude = max(-89, min(89, e.latitude! - 0.3))
            default: e.place = (e.place ?? "") + " (revised)"
            }
            changed.append(e)
        }
        for k in 0..<4 {
            var e = source[all[k * 97].id]!
            (e.id, e.ids, e.updated) = ("qbnew\(k)", ["qbnew\(k)"], e.updated + 120_000)
            e.longitude = e.longitude! * 0.5
            changed.append(e)
        }
        try store.upsert(changed)
        let deleted = [all[11].id, all[2222].id, all[3333].id]
        try store.delete(deleted, updated: all.map(\.updated).max()! + 1)
        return changed.count + deleted.count
    }

    /// A GeoJSON zoom whose points are as they were is copied from the current version, and only
    /// when that file is the one its manifest lists: the bundle is still the one a full export makes.
    @Test func unchangedGeoJSONZoomsAreCopiedWhenSound() throws {
        let dir = TemporaryDirectory("geojson-copy")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let before = try ExportHelpers.export(store, to: dir.path("bundles"))
        // The smallest quake's place is revised: only the zooms that show it change.
        var smallest = try #require(try store.events().values.min { ($0.mag ?? -9, $0.id) < ($1.mag ?? -9, $1.id) })
        smallest.updated += 60_000
        smallest.place = (smallest.place ?? "") + " (revised)"
        try store.upsert([smallest])
        // The current version's z1 file damaged since it was published.
        let damaged = before.directory.appendingPathComponent("geojson/z1.geojson.gz")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: damaged)

        let incremental = try ExportHelpers.export(store, to: dir.path("bundles"))
        let full = try ExportHelpers.export(store, to: dir.path("full"))
        #expect(ExportHelpers.differences(incremental.directory, full.directory) == [])
        #expect(incremental.copiedGeoJSONZooms.contains(0) && incremental.copiedGeoJSONZooms.contains(2), "\(incremental.copiedGeoJSONZooms)")
        #expect(!incremental.copiedGeoJSONZooms.contains(1), "a damaged file is written again, not copied")
        #expect(full.copiedGeoJSONZooms.isEmpty)
    }

    @Test(arguments: [500_000, 12_000])
    func incrementalExportEqualsAFullExport(maxTileBytes: Int) throws {
        let dir = TemporaryDirectory("incremental")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let configure: (inout ExportOptions) -> Void = { $0.thinning.maxTileBytes = maxTileBytes }
        let before = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        try FileManager.default.copyItem(at: dir.path("bundles"), to: dir.path("again"))
        let changes = try Self.change(store)
        #expect(changes > 10)
        let incremental = try ExportHelpers.export(store, to: dir.path("bundles"), configure)
        let full = try ExportHelpers.export(store, to: dir.path("full"), configure)
        #expect(incremental.changed && incremental.directory != before.directory)
        #expect(ExportHelpers.differences(incremental.directory, full.directory) == [])
        if maxTileBytes < 500_000 { #expect(!full.warnings.isEmpty, "the size guard cut tiles") }
        // The files it patched are sound, and the same export over the same bundle writes the same bytes.
        for file in ExportHelpers.patchedFiles {
            let queue = try DatabaseQueue(path: incremental.directory.appendingPathComponent(file).path)
            let checks = try queue.read { db in
                [try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                 file == "quakes.sqlite" ? try String.fetchOne(db, sql: "SELECT rtreecheck('events_rtree')") : "ok"]
            }
            #expect(checks == ["ok", "ok"], "\(file)")
        }
        let again = try ExportHelpers.export(store, to: dir.path("again"), configure)
        #expect(ExportHelpers.differences(incremental.directory, again.directory, patchedFiles: false) == [])

        // Only tiles whose content changed were encoded; every other one was reused.
        let old = try ExportHelpers.mbtiles(before.directory.appendingPathComponent("quakes.mbtiles"))
        let new = try ExportHelpers.mbtiles(incremental.directory.appendingPathComponent("quakes.mbtiles"))
        let changedTiles = new.filter { old[$0.key] != $0.value }.count
        #expect(incremental.reusedTiles == new.count - changedTiles)
        #expect(incremental.encodedTiles >= changedTiles)
        #expect(changedTiles < new.count / 4, "\(changedTiles) of \(new.count) tiles changed")
        #expect(full.encodedTiles >= full.tiles && full.reusedTiles == 0)
    }

    /// A patched file that has lost most of its rows (here: most events deleted) is written whole
    /// again, compact: the same bytes as a full export's.
    @Test func aLoosePatchedFileIsWrittenWholeAgain() throws {
        let dir = TemporaryDirectory("incremental-loose")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        _ = try ExportHelpers.export(store, to: dir.path("bundles"))
        let all = try store.events().values.sorted { $0.id < $1.id }
        try store.delete(all.enumerated().filter { $0.offset % 4 != 0 }.map(\.element.id), updated: all.map(\.updated).max()! + 1)
        let log = RecordedLog()
        let incremental = try ExportHelpers.export(store, to: dir.path("bundles"), logger: log.logger)
        let full = try ExportHelpers.export(store, to: dir.path("full"))
        #expect(incremental.events == all.count - all.count * 3 / 4 && incremental.rowsRead < incremental.events)
        #expect(log.messages.contains { $0.contains("patched the previous bundle's file") && $0.contains("written whole again") && $0.contains("rows and indexes transferred") },
                "\(log.messages)")
        #expect(ExportHelpers.differences(incremental.directory, full.directory) == [])
        let file = "quakes.sqlite"
        #expect(try Data(contentsOf: incremental.directory.appendingPathComponent(file)) == Data(contentsOf: full.directory.appendingPathComponent(file)))
    }
}

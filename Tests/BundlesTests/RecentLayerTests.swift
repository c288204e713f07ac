import Foundation
import GRDB
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Issue 18.2: with `--recent-days N` the quakes of the last N to 2N days leave the tiles for
/// `recent.geojson`, so a cron run that changes only recent quakes changes no tile: its delta
/// is the changed app rows alone. The tiles change when the boundary moves, and then they
/// are exactly what a full export makes.
@Suite struct RecentLayerTests {
    /// A year of CONUS M2.5+ quakes (2019): the 30-day boundary falls on 2019-11-10.
    static let sample = "query-conus-m2.5-2019.geojson.gz"
    static let days = 30
    static func recent(_ options: inout ExportOptions) { options.recentDays = .days(days) }

    @Test func recentQuakesLeaveTheTilesForTheirOwnLayerAndTheirChangesLeaveTheTilesAlone() async throws {
        let dir = TemporaryDirectory("recent")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let out = dir.path("bundles")
        let v1 = try ExportHelpers.export(store, to: out, Self.recent)
        let events = try store.events().values
        let manifest = try Self.json(v1.directory.appendingPathComponent("manifest.json"))
        let recent = try #require(manifest["recent"] as? [String: Any])
        let since = try #require(recent["since_ms"] as? Int64)
        #expect(recent["since"] as? String == "2019-11-10T00:00:00.000Z" && recent["file"] as? String == "recent.geojson")
        let newest = events.compactMap(\.time).max()!
        #expect(since <= newest - Int64(Self.days) * 86_400_000 && since > newest - Int64(2 * Self.days) * 86_400_000)

        // recent.geojson: exactly the quakes from the boundary on, each drawn from the lowest zoom.
        let recentIDs = Set(events.filter { $0.time! >= since }.map(\.id))
        let historyIDs = Set(events.filter { $0.time! < since }.map(\.id))
        #expect(recentIDs.count > 100 && historyIDs.count > 3_000)
        #expect(recent["events"] as? Int == recentIDs.count)
        let features = try #require(try Self.json(v1.directory.appendingPathComponent("recent.geojson"))["features"] as? [[String: Any]])
        #expect(Set(features.compactMap { $0["id"] as? String }) == recentIDs && features.count == recentIDs.count)
        #expect(features.allSatisfy { ($0["properties"] as? [String: Any])?["minzoom"] as? Int == 0 })

        // The app database names the boundary, and its rows from there on are the recent layer.
        let appRecent = try await DatabaseQueue(path: v1.directory.appendingPathComponent("quakes.sqlite").path).read { db in
            try String.fetchAll(db, sql: "SELECT id FROM events WHERE time >= (SELECT CAST(value AS INTEGER) FROM info WHERE name = 'recent_since')")
        }
        #expect(Set(appRecent) == recentIDs && appRecent.count == recentIDs.count)

        // The tiles: at the maximum zoom exactly the history, at every zoom no recent quake.
        let rowids = try Self.appRowIDs(v1.directory)
        let bundle = try await BundleReport.read(v1.directory)
        let maxZoom = bundle.mbtiles.tiles.map(\.z).max()!
        func tileIDs(_ zoom: Int?) -> [String] {
            bundle.mbtiles.tiles.filter { zoom == nil || $0.z == zoom }
                .flatMap { $0.layers["quakes"]?.features ?? [] }.map { rowids[Int64($0.id!)]! }
        }
        let atMax = tileIDs(maxZoom)
        #expect(atMax.count == historyIDs.count && Set(atMax) == historyIDs)
        #expect(Set(tileIDs(nil)).isDisjoint(with: recentIDs))

        // The style draws the recent layer over the tiles' quakes.
        let style = try Self.json(v1.directory.appendingPathComponent("style.json"))
        let source = try #require((style["sources"] as? [String: [String: Any]])?["recent"])
        #expect(source["type"] as? String == "geojson" && source["data"] as? String == "recent.geojson")
        #expect((style["layers"] as? [[String: Any]])?.last?["id"] as? String == "recent")

        // A cron run: the 20 newest quakes revised. No tile changes; the delta is their rows.
        let newest20 = events.sorted { ($0.time!, $0.id) > ($1.time!, $1.id) }.prefix(20).map { event -> QuakeEvent in
            var e = event
            e.updated += 1_000
            e.mag = (e.mag ?? 1) + 0.1
            return e
        }
        try store.upsert(newest20)
        let v2 = try ExportHelpers.export(store, to: out, Self.recent)
        #expect(v2.bundleVersion != v1.bundleVersion && v2.encodedTiles == 0)
        #expect(try Data(contentsOf: v2.directory.appendingPathComponent("quakes.mbtiles"))
            == Data(contentsOf: v1.directory.appendingPathComponent("quakes.mbtiles")))
        let delta = v2.directory.appendingPathComponent("deltas/\(v1.bundleVersion)")
        #expect(try Self.count("tiles", in: delta.appendingPathExtension("mbtiles")) == 0)
        #expect(try Self.count("deleted_tiles", in: delta.appendingPathExtension("mbtiles")) == 0)
        #expect(try Self.count("events", in: delta.appendingPathExtension("sqlite")) == 20)
        let changed = try #require((try Self.json(v2.directory.appendingPathComponent("manifest.json"))["deltas"] as? [[String: Any]])?.first?["changed_files"] as? [String])
        #expect(changed.contains("recent.geojson"))
        // And it is the bundle a full export makes.
        let full = try ExportHelpers.export(store, to: dir.path("full")) { Self.recent(&$0); $0.reuseTiles = false }
        #expect(ExportHelpers.differences(v2.directory, full.directory) == [])
    }

    /// Issue 14.2 on the map as drawn: every quake the biggest-first sweep over all quakes (the
    /// recent layer's included) keeps is drawn, in the recent layer or in the tiles of that zoom.
    /// Some the sweep over the history alone would not keep (a bigger history quake next to them
    /// is hidden by a bigger recent one): the tiles draw them too.
    @Test func theBiggestOfEachNeighbourhoodIsDrawnOverTheWholeMap() async throws {
        let dir = TemporaryDirectory("recent-maxima")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let maxZoom = 8
        let v1 = try ExportHelpers.export(store, to: dir.path("bundles")) { Self.recent(&$0); $0.thinning.maxZoom = maxZoom }
        let events = try store.events().values
        let since = try #require((try Self.json(v1.directory.appendingPathComponent("manifest.json"))["recent"] as? [String: Any])?["since_ms"] as? Int64)
        let recentIDs = Set(events.filter { $0.time! >= since }.map(\.id))
        let rowids = try Self.appRowIDs(v1.directory)
        let bundle = try await BundleReport.read(v1.directory)
        var keptForTheWholeMap = 0
        for zoom in 0..<maxZoom {
            let tiles = bundle.mbtiles.tiles.filter { $0.z == zoom }.flatMap { $0.layers["quakes"]?.features ?? [] }
            let drawn = Set(tiles.map { rowids[Int64($0.id!)]! }).union(recentIDs)
            let whole = ScreenSweep(events, zoom: zoom)
            let kept = Set(whole.biggestFirst().map { whole.events[$0].id })
            let missed = kept.subtracting(drawn)
            #expect(missed.isEmpty, "zoom \(zoom): \(missed.sorted().prefix(5)) are the biggest within 32 px and not drawn")
            let history = ScreenSweep(events.filter { !recentIDs.contains($0.id) }, zoom: zoom)
            keptForTheWholeMap += kept.subtracting(recentIDs).subtracting(history.biggestFirst().map { history.events[$0].id }).count
        }
        #expect(keptForTheWholeMap > 0, "the sample has maxima that the history's sweep alone does not keep")
    }

    /// A cron run whose changes are all recent (revisions, a deletion) leaves the tiles' events as
    /// they were: when the quakes the thinning draws for the whole map are as before too, the
    /// export takes the previous thinning over, size-guard cuts included, and makes what a full
    /// export makes; bigger recent quakes or a change to the history thin anew.
    @Test func aRecentOnlyRunTakesTheThinningOverAsAFullExportWouldMakeIt() throws {
        let dir = TemporaryDirectory("recent-taken")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        func options(_ o: inout ExportOptions) {
            Self.recent(&o)
            o.thinning.maxTileFeatures = 150  // the 2019 Ridgecrest sequence overfills its tiles: guard cuts
        }
        let out = dir.path("bundles")
        let v1 = try ExportHelpers.export(store, to: out, options)
        #expect(v1.warnings.count >= 2, "\(v1.warnings)")
        let events = try store.events().values.sorted { ($0.time!, $0.id) > ($1.time!, $1.id) }
        func thinnedAnew(_ log: RecordedLog) -> Bool { !log.messages.contains { $0.contains("the previous export's thinning") } }

        // Revisions that move no quake and change no magnitude, and the deletion of a recent quake
        // that no zoom's biggest-first sweep keeps (so it hides no other quake from the sweeps).
        try store.upsert(events.prefix(10).map { event -> QuakeEvent in
            var e = event
            e.updated += 1_000
            e.place = "revised: \(e.place ?? "")"
            return e
        })
        let keptSomewhere = Set((0...ExportOptions().thinning.maxZoom).flatMap { zoom in
            let screen = ScreenSweep(events, zoom: zoom)
            return screen.biggestFirst().map { screen.events[$0].id }
        })
        let hidden = try #require(events[10..<100].first { !keptSomewhere.contains($0.id) })
        try store.delete([hidden.id], updated: hidden.updated + 1_000)
        let log = RecordedLog()
        let v2 = try ExportHelpers.export(store, to: out, logger: log.logger, options)
        #expect(!thinnedAnew(log), "\(log.messages)")
        #expect(v2.encodedTiles == 0)
        let full2 = try ExportHelpers.export(store, to: dir.path("full2")) { options(&$0); $0.reuseTiles = false }
        #expect(v2.warnings == full2.warnings && v2.warnings == v1.warnings)
        #expect(ExportHelpers.differences(v2.directory, full2.directory) == [])

        // Bigger recent quakes: the biggest of some neighbourhoods on the map change, the tiles with them.
        try store.upsert(events.prefix(10).map { event -> QuakeEvent in
            var e = event
            e.updated += 2_000
            e.mag = (e.mag ?? 1) + 1.5
            return e
        })
        let log3 = RecordedLog()
        let v3 = try ExportHelpers.export(store, to: out, logger: log3.logger, options)
        #expect(thinnedAnew(log3) && v3.encodedTiles > 0)
        let full3 = try ExportHelpers.export(store, to: dir.path("full3")) { options(&$0); $0.reuseTiles = false }
        #expect(v3.warnings == full3.warnings)
        #expect(ExportHelpers.differences(v3.directory, full3.directory) == [])

        // A quake of the history revised: thinned anew, as a full export.
        var old = try #require(events.last)
        old.updated += 1_000
        old.mag = (old.mag ?? 1) + 2
        try store.upsert([old])
        let log4 = RecordedLog()
        let v4 = try ExportHelpers.export(store, to: out, logger: log4.logger, options)
        #expect(thinnedAnew(log4))
        let full4 = try ExportHelpers.export(store, to: dir.path("full4")) { options(&$0); $0.reuseTiles = false }
        #expect(v4.warnings == full4.warnings)
        #expect(ExportHelpers.differences(v4.directory, full4.directory) == [])
    }

    @Test func aMovedBoundaryGivesTheTilesAFullExportMakesEitherWay() throws {
        let dir = TemporaryDirectory("recent-boundary")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let out = dir.path("bundles")
        _ = try ExportHelpers.export(store, to: out, Self.recent)
        // A revised quake of the history, with the boundary where it was: its tiles change, as in a full export.
        var old = try #require(try store.events().values.min { ($0.time!, $0.id) < ($1.time!, $1.id) })
        old.updated += 1_000
        old.mag = (old.mag ?? 1) + 1.5
        try store.upsert([old])
        let v1 = try ExportHelpers.export(store, to: out, Self.recent)
        #expect(v1.encodedTiles > 0 && v1.reusedTiles > v1.encodedTiles)
        let full1 = try ExportHelpers.export(store, to: dir.path("full1")) { Self.recent(&$0); $0.reuseTiles = false }
        #expect(ExportHelpers.differences(v1.directory, full1.directory) == [])
        let newest = try #require(try store.events().values.max { ($0.time!, $0.id) < ($1.time!, $1.id) })

        // A quake 45 days after the newest moves the boundary on by 30 days: a month of quakes joins the history.
        var later = newest
        (later.id, later.ids, later.time, later.updated) = ("qblater1", ["qblater1"], newest.time! + 45 * 86_400_000, newest.updated + 1_000)
        try store.upsert([later])
        let v2 = try ExportHelpers.export(store, to: out, Self.recent)
        let full2 = try ExportHelpers.export(store, to: dir.path("full2")) { Self.recent(&$0); $0.reuseTiles = false }
        #expect(ExportHelpers.differences(v2.directory, full2.directory) == [])
        let since1 = try Self.json(v1.directory.appendingPathComponent("manifest.json"))["recent"] as? [String: Any]
        let since2 = try Self.json(v2.directory.appendingPathComponent("manifest.json"))["recent"] as? [String: Any]
        #expect((since2?["since_ms"] as? Int64 ?? 0) - (since1?["since_ms"] as? Int64 ?? 0) == Int64(Self.days) * 86_400_000)
        #expect(try ExportHelpers.mbtiles(v2.directory.appendingPathComponent("quakes.mbtiles"))
            != ExportHelpers.mbtiles(v1.directory.appendingPathComponent("quakes.mbtiles")))

        // Deleted again, the boundary moves back: the month leaves the tiles again, as a full export has it.
        try store.delete(["qblater1"], updated: later.updated + 10)
        let v3 = try ExportHelpers.export(store, to: out, Self.recent)
        let full3 = try ExportHelpers.export(store, to: dir.path("full3")) { Self.recent(&$0); $0.reuseTiles = false }
        #expect(ExportHelpers.differences(v3.directory, full3.directory) == [])
        #expect(try ExportHelpers.mbtiles(v3.directory.appendingPathComponent("quakes.mbtiles"))
            == ExportHelpers.mbtiles(v1.directory.appendingPathComponent("quakes.mbtiles")))
    }

    /// MapLibre Native (the `mapli` witness) draws the recent layer from `recent.geojson` with the
    /// bundle's own style: its quakes alone make quake pixels around the Pacific, none over Brazil.
    @Test(.tags(.renderer), .unlessSkipped(.renderer)) func theStyleDrawsTheRecentLayerInMapLibreNative() async throws {
        let directory = TemporaryDirectory("recent-style")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "6", "--recent-days", "366"]).checked()
        let bundle = directory.path("ws/bundles/current")
        // `status` names the recent layer as the manifest does.
        let status = try await QuakeBakeCLI.run(["status", "--workspace", root, "--json"]).checked().standardOutput
        let shown = try #require(((try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])?["bundle"] as? [String: Any])?["recent"] as? [String: Any])
        let recentMember = try #require(try Self.json(bundle.appendingPathComponent("manifest.json"))["recent"] as? [String: Any])
        #expect(shown["since"] as? String == recentMember["since"] as? String && shown["events"] as? Int == recentMember["events"] as? Int)
        #expect((shown["events"] as? Int ?? 0) > 50)
        let pictures = directory.path("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        struct View: Decodable { let quake: Int }
        func render(_ layers: String) async throws -> [String: View] {
            try JSONDecoder().decode([String: View].self, from: await WitnessScript.run(
                "render_style.py", ["--layers", layers, bundle.path, pictures.path, "\(layers)-pacific:170:10:1", "\(layers)-brazil:-50:-12:5"]))
        }
        let recent = try await render("recent"), history = try await render("quakes")
        #expect((recent["recent-pacific"]?.quake ?? 0) >= 200, "\(recent)")
        #expect(recent["recent-brazil"]?.quake == 0, "\(recent)")
        #expect((history["quakes-pacific"]?.quake ?? 0) > 2 * (recent["recent-pacific"]?.quake ?? 0),
                "the tiles hold 50 years, the recent layer one or two: \(history) against \(recent)")
    }

    @Test func aRecentLayerOverTheGeoJSONLimitIsWarnedOf() throws {
        let dir = TemporaryDirectory("recent-big")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let summary = try ExportHelpers.export(store, to: dir.path("bundles")) { Self.recent(&$0); $0.geoJSONMaxFeatures = 100 }
        #expect(summary.warnings.first?.hasPrefix("the recent layer holds 196 quakes (more than the 100 features of a GeoJSON zoom)") == true,
                "\(summary.warnings)")
        // A zoom's GeoJSON holds the history's quakes and clusters alone: the low zooms still fit, and the preview carries them.
        let z0 = try #require(try JSONSerialization.jsonObject(with: Gzip.decompress(Data(contentsOf: summary.directory.appendingPathComponent("geojson/z0.geojson.gz")))) as? [String: Any])
        let features = try #require(z0["features"] as? [[String: Any]])
        #expect(!features.isEmpty && features.count <= 100)
        let recentIDs = Set(try #require(try Self.json(summary.directory.appendingPathComponent("recent.geojson"))["features"] as? [[String: Any]]).compactMap { $0["id"] as? String })
        #expect(Set(features.compactMap { $0["id"] as? String }).isDisjoint(with: recentIDs))
        let preview = try String(contentsOf: summary.directory.appendingPathComponent("preview.html"), encoding: .utf8)
        #expect(preview.contains("\"zooms\":[{\"zoom\":0"))
    }

    /// By default (`--recent-days auto`) a catalog of months or years gets a layer of a week; a
    /// catalog of a week, where it would be most of the map, none; `off` none whatever the catalog.
    @Test func byDefaultALongCatalogGetsAWeekAndAShortOneNone() throws {
        let dir = TemporaryDirectory("recent-auto")
        let year = try TestStore(workspace: dir.path("year"), samples: [Self.sample])
        let events = try year.events().values
        let v1 = try ExportHelpers.export(year, to: dir.path("year-bundles")) { _ in }
        let recent = try #require(try Self.json(v1.directory.appendingPathComponent("manifest.json"))["recent"] as? [String: Any])
        let since = RecentLayer.boundary(newest: events.compactMap(\.time).max()!, days: RecentDays.autoDays)
        let inWeek = events.filter { $0.time! >= since }.count
        #expect(recent["since_ms"] as? Int64 == since && recent["events"] as? Int == inWeek)
        #expect(inWeek > 20 && inWeek * 10 <= events.count)
        let off = try ExportHelpers.export(year, to: dir.path("year-off")) { $0.recentDays = .off }
        #expect(try Self.json(off.directory.appendingPathComponent("manifest.json"))["recent"] == nil)
        #expect(!FileManager.default.fileExists(atPath: off.directory.appendingPathComponent("recent.geojson").path))

        let week = try TestStore(workspace: dir.path("week"), samples: ["feed-all_week-2018-06.geojson.gz"])
        let v2 = try ExportHelpers.export(week, to: dir.path("week-bundles")) { _ in }
        #expect(try Self.json(v2.directory.appendingPathComponent("manifest.json"))["recent"] == nil)
        #expect(!FileManager.default.fileExists(atPath: v2.directory.appendingPathComponent("recent.geojson").path))
        #expect(v2.events == (try week.events().count))
    }

    @Test func theBoundaryIsAWholeNumberOfPeriodsBeforeTheNewestQuake() {
        let day: Int64 = 86_400_000
        #expect(RecentLayer.boundary(newest: 60 * day, days: 30) == 30 * day)
        #expect(RecentLayer.boundary(newest: 60 * day - 1, days: 30) == 0)
        #expect(RecentLayer.boundary(newest: -1, days: 30) == -60 * day, "before 1970 too")
        #expect(RecentLayer.boundary(newest: 7 * day + 5, days: 7) == 0)
    }

    private static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private static func count(_ table: String, in url: URL) throws -> Int {
        try DatabaseQueue(path: url.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)")! }
    }

    /// The app database's rowids (the tiles' feature ids) → USGS ids.
    private static func appRowIDs(_ bundle: URL) throws -> [Int64: String] {
        try DatabaseQueue(path: bundle.appendingPathComponent("quakes.sqlite").path).read { db in
            var ids: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT rowid, id FROM events") { ids[row[0]] = row[1] }
            return ids
        }
    }
}

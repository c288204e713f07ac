import QuakeSynthetic
import Foundation
import QuakeCatalog
import QuakeStore
import Testing
import TestSupport

/// Other tools open the store and see the geometry: `spatialite` and GDAL's `ogrinfo`,
/// run as separate processes; the packed R-tree answers like a plain scan.
@Suite struct WitnessTests {
    @Test func ogrinfoSeesAPointLayerInWGS84WithEveryEvent() async throws {
        let f = StoreFixture()
        try f.index([.file(TestData.usgs("feed-all_week-2018-06.geojson.gz"))])
        let info = try await ChildProcess.run("ogrinfo", ["-ro", "-so", f.store.path, "events"]).checked().standardOutput
        #expect(info.contains("Geometry: Point"))
        #expect(info.contains("Feature Count: 4711"))
        #expect(info.contains("ID[\"EPSG\",4326]"))
        #expect(info.contains("Geometry Column NOT NULL = geom"))
        // A spatial filter (answered through the spatial index) counts what a plain scan counts.
        let filtered = try await ChildProcess.run("ogrinfo", ["-ro", "-so", "-spat", "-125", "32", "-114", "42", f.store.path, "events"]).checked().standardOutput
        let scanned = try f.value("SELECT count(*) FROM events WHERE longitude BETWEEN -125 AND -114 AND latitude BETWEEN 32 AND 42")
        #expect(filtered.contains("Feature Count: \(scanned)") && Int(scanned)! > 100)
        // And reads a feature's attributes and geometry back.
        let feature = try await ChildProcess.run("ogrinfo", ["-ro", f.store.path, "-sql", "SELECT id, longitude, latitude, geom FROM events ORDER BY id LIMIT 1"]).checked().standardOutput
        let row = try f.sql("SELECT id, longitude, latitude FROM events ORDER BY id LIMIT 1")[0].split(separator: "|")
        #expect(feature.contains("id (String) = \(row[0])"))
        #expect(feature.contains("POINT ("))
    }

    @Test func spatialiteChecksTheSpatialIndexAndTheGeometryColumn() throws {
        let f = StoreFixture()
        try f.index([.file(TestData.usgs("query-conus-m2.5-2019.geojson.gz"))])
        #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
        #expect(try f.sql("SELECT f_table_name, f_geometry_column, geometry_type, coord_dimension, srid, spatial_index_enabled FROM geometry_columns")
            == ["events|geom|1|2|4326|1"])
        // The geometry is the exact point of the longitude and latitude columns.
        #expect(try f.value("SELECT count(*) FROM events WHERE ST_X(geom) <> longitude OR ST_Y(geom) <> latitude OR ST_SRID(geom) <> 4326") == "0")
        #expect(try f.value("SELECT count(*) FROM events WHERE NOT ST_Equals(geom, MakePoint(longitude, latitude, 4326))") == "0")
    }

    @Test func thePackedRTreeIsValidAndAnswersLikeAScanAlsoAfterIncrementalChanges() throws {
        let f = StoreFixture()
        var catalog = SyntheticCatalog(seed: 7)
        let events = catalog.events(30_000)   // three R-tree levels
        let pages = try FeatureCollectionPages.write(events, pageSize: 10_000, to: f.directory.path("synthetic"))
        try f.index(pages.map { IndexSource.file($0) })
        #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok")
        #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
        #expect(try Int(f.value("SELECT depth FROM (SELECT rtreedepth(data) AS depth FROM idx_events_geom_node WHERE nodeno = 1)")) == 2)
        try expectQueriesMatchScans(f)

        // Incrementally: move some events, delete some, add some; SpatiaLite's triggers keep the tree.
        var changes: [QuakeEvent] = []
        for (n, event) in events.prefix(600).enumerated() {
            var changed = event
            changed.updated += 1
            switch n % 3 {
            case 0: changed.longitude = -(event.longitude ?? 0); changed.latitude = -(event.latitude ?? 0)
            case 1: changed = deletion(event.id, updated: event.updated + 1)
            default: changed.mag = (event.mag ?? 0) + 1
            }
            changes.append(changed)
        }
        changes += catalog.events(500)
        let counts = try f.index([f.page(changes)]).counts
        #expect(counts.updated == 400 && counts.deleted == 200 && counts.inserted == 500)
        #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok")
        #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
        #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "30300")
        try expectQueriesMatchScans(f)
    }

    /// Boxes of every size, including ones touching ±180 and the poles, answer the same
    /// through the spatial index as by scanning the exact columns.
    private func expectQueriesMatchScans(_ f: StoreFixture) throws {
        var random = SeededRandom(seed: 99)
        var boxes: [(Double, Double, Double, Double)] = [(-180, -90, 180, 90), (170, -60, 180, 60), (-180, 40, -150, 70), (-118, 33, -116, 35)]
        for _ in 0..<40 {
            let width = 0.2 + random.unit() * 60, height = 0.2 + random.unit() * 40
            let west = random.unit() * (360 - width) - 180, south = random.unit() * (180 - height) - 90
            boxes.append((west, south, west + width, south + height))
        }
        let queries = boxes.map { w, s, e, n in
            """
            SELECT (SELECT count(*) FROM events WHERE rowid IN (SELECT pkid FROM idx_events_geom
                        WHERE xmax >= \(w) AND xmin <= \(e) AND ymax >= \(s) AND ymin <= \(n))
                    AND longitude BETWEEN \(w) AND \(e) AND latitude BETWEEN \(s) AND \(n))
                || ' ' || (SELECT count(*) FROM events WHERE longitude BETWEEN \(w) AND \(e) AND latitude BETWEEN \(s) AND \(n));
            """
        }
        let answers = try f.sql(queries.joined(separator: "\n"))
        #expect(answers.count == boxes.count)
        for (answer, box) in zip(answers, boxes) {
            let parts = answer.split(separator: " ")
            #expect(parts.count == 2 && parts[0] == parts[1], "box \(box): index \(parts.first ?? "?") vs scan \(parts.last ?? "?")")
        }
    }
}

import Foundation
import QuakeCatalog
import QuakeTiles
import Testing
import TestSupport

/// Issue 48.4: the demo's bundle as MapLibre Native (the `mapli` witness) draws its own
/// `style.json`, judged on pixels: the plate boundaries along the Pacific ring at zoom 1 (the
/// pixels that change when their layer is hidden), the land, and the heat at zoom 2, weighed
/// by the quakes' true number (a render with the weight 1 differs where many quakes share a
/// cell, and only there); and its `preview.html` draws the same layers. One picture at a time
/// (each a renderer or a browser of its own, beside the rest of the suite on two cores).
@Suite(.serialized, .tags(.renderer), .unlessSkipped(.renderer)) struct MapPictureTests {
    /// A map view as `render_style.py` draws it: 800 × 600 pixels around (lon, lat) at `zoom`
    /// (or as the browser witness shows a page, 1400 × 900).
    struct View {
        let name: String
        let lon: Double, lat: Double, zoom: Int
        var width = 800.0, height = 600.0

        var argument: String { "\(name):\(lon):\(lat):\(zoom)" }
        var worldPixels: Double { 512 * Double(1 << zoom) }

        /// The pixel of a place (the copy of the world nearest the centre).
        func pixel(lon: Double, lat: Double) -> [Double] {
            var dx = (WebMercator.unitX(longitude: lon) - WebMercator.unitX(longitude: self.lon)) * worldPixels
            dx -= worldPixels * (dx / worldPixels).rounded()
            return [width / 2 + dx, height / 2 + (WebMercator.unitY(latitude: lat) - WebMercator.unitY(latitude: self.lat)) * worldPixels]
        }

        /// The pixel of a world position given in pixels of this zoom.
        func pixel(worldX: Double, worldY: Double) -> [Double] {
            var dx = worldX - WebMercator.unitX(longitude: lon) * worldPixels
            dx -= worldPixels * (dx / worldPixels).rounded()
            return [width / 2 + dx, height / 2 + worldY - WebMercator.unitY(latitude: lat) * worldPixels]
        }

        /// The box `x0,y0,x1,y1` of pixels between two corners.
        func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> String {
            let a = pixel(lon: west, lat: north), b = pixel(lon: east, lat: south)
            return "\(a[0]),\(a[1]),\(b[0]),\(b[1])"
        }
    }

    struct Place: Decodable {
        let points: Int, near: Int, brighter: Int
    }

    static let world = View(name: "world", lon: 150, lat: 15, zoom: 1)
    static let asia = View(name: "asia", lon: 140, lat: 20, zoom: 2)

    /// Draws `views` of the demo bundle (`options` change its style first: see render_style.py) into `directory`.
    static func render(_ options: [String], _ views: [View], into directory: URL) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = try await WitnessScript.run("render_style.py", options + [try await DemoBundle.shared.value.path, directory.path] + views.map(\.argument))
    }

    /// Compares two pictures with picture_diff.py, `places` written to a points file.
    static func diff(_ a: URL, _ b: URL, places: [String: (radius: Double, points: [[Double]])] = [:], boxes: [String] = []) async throws -> [String: JSON] {
        var arguments = [a.path, b.path]
        if !places.isEmpty {
            let file = a.deletingLastPathComponent().appendingPathComponent("places-\(UUID().uuidString).json")
            let json = JSON.object(places.sorted { $0.key < $1.key }.map { name, place in
                (name, JSON.object([("radius", .number(place.radius)), ("points", .array(place.points.map { .array($0.map { .number($0) }) }))]))
            })
            try Data(json.text.utf8).write(to: file)
            arguments += ["--points", file.path]
        }
        return try JSONDecoder().decode([String: JSON].self, from: await WitnessScript.run("picture_diff.py", arguments + boxes))
    }

    static func place(_ report: [String: JSON], _ name: String) throws -> Place {
        try JSONDecoder().decode(Place.self, from: Data(try #require(report[name]).text.utf8))
    }

    /// The vertices of the plate boundaries of `data/basemap` (the shipped file), every 2 pixels
    /// along each line at `view`, split into the Pacific plate's boundaries and the others.
    static func boundaryPoints(_ view: View) throws -> (pacific: [[Double]], others: [[Double]]) {
        let data = try Data(contentsOf: TestData.projectRoot.appendingPathComponent("data/basemap/plate-boundaries.geojson"))
        let features = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]])
        var pacific: [[Double]] = [], others: [[Double]] = []
        for feature in features {
            let name = ((feature["properties"] as? [String: Any])?["name"] as? String) ?? ""
            let line = ((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]]) ?? []
            var points: [[Double]] = []
            for (a, b) in zip(line, line.dropFirst()) {
                let p = view.pixel(lon: a[0], lat: a[1]), q = view.pixel(lon: b[0], lat: b[1])
                let steps = max(1, Int((hypot(q[0] - p[0], q[1] - p[1]) / 2).rounded(.up)))
                guard steps < 400 else { continue }  // a segment wrapped across the picture's copy of the world
                for k in 0..<steps { points.append([p[0] + (q[0] - p[0]) * Double(k) / Double(steps), p[1] + (q[1] - p[1]) * Double(k) / Double(steps)]) }
            }
            if name.split(whereSeparator: { "-/\\".contains($0) }).contains("PA") { pacific += points } else { others += points }
        }
        return (pacific, others)
    }

    /// The demo bundle's heat cells at `view`'s zoom, as the witness decodes its tiles: pixel and count.
    static func heatCells(_ view: View) async throws -> [(pixel: [Double], count: Double)] {
        let bundle = try await DemoBundle.shared.value
        let cells = try JSONDecoder().decode([[Double]].self, from: await WitnessScript.run(
            "tiles_witness.py", ["heat", bundle.appendingPathComponent("quakes.mbtiles").path, "\(view.zoom)"]))
        return cells.map { (pixel: view.pixel(worldX: $0[0], worldY: $0[1]), count: $0[2]) }
    }

    @Test func thePlateBoundariesAreDrawnAlongThePacificRingAtZoomOne() async throws {
        let directory = TemporaryDirectory("map-plates")
        try await Self.render([], [Self.world], into: directory.path("all"))
        try await Self.render(["--hide", "plate-boundaries"], [Self.world], into: directory.path("hidden"))
        let (pacific, others) = try Self.boundaryPoints(Self.world)
        let report = try await Self.diff(directory.path("all/world.png"), directory.path("hidden/world.png"),
                                         places: ["pacific": (3, pacific), "others": (3, others)])
        let ring = try Self.place(report, "pacific")
        #expect(ring.points >= 1_000, "the Pacific plate's boundaries are in view: \(ring)")
        #expect(ring.near * 10 >= ring.points * 7, "hiding the layer changes the picture along the Pacific ring (quakes hide the rest): \(ring)")
        let changed = try #require(report["all"]?.number), away = try #require(report["away"]?.number)
        #expect(changed >= 3_000, "\(report)")
        #expect(away * 100 <= changed, "what changes lies along plate boundaries: \(report)")
    }

    @Test func theLandIsDrawn() async throws {
        let directory = TemporaryDirectory("map-land")
        try await Self.render([], [Self.world], into: directory.path("all"))
        try await Self.render(["--hide", "land"], [Self.world], into: directory.path("hidden"))
        let bundle = try await DemoBundle.shared.value
        let style = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("style.json"))) as? [String: Any])
        let land = try #require((style["layers"] as? [[String: Any]])?.first { $0["id"] as? String == "land" })
        let colour = try #require((land["paint"] as? [String: Any])?["fill-color"] as? String)
        let australia = Self.world.box(124, -30, 140, -20), pacific = Self.world.box(-150, -20, -130, -5)
        let corners = australia.split(separator: ",").map { Double($0)! }
        let area = (corners[2] - corners[0]) * (corners[3] - corners[1])
        let counts = try JSONDecoder().decode([String: Int].self, from: await WitnessScript.run("picture_witness.py", [
            directory.path("all/world.png").path, "australia=\(colour)@\(australia)"]))
        // (The rest under the faint heat of its few quakes.)
        #expect(Double(counts["australia"] ?? 0) >= area / 2, "central Australia is drawn in the land's colour: \(counts)")
        let hidden = try await Self.diff(directory.path("all/world.png"), directory.path("hidden/world.png"),
                                         boxes: ["australia=\(australia)", "pacific=\(pacific)"])
        #expect((hidden["australia"]?.number ?? 0) >= area * 0.8 && hidden["pacific"]?.number == 0, "the land is there, the sea is not: \(hidden)")
    }

    @Test func theHeatIsDrawnAtZoomTwoWeighedByTheNumberOfQuakes() async throws {
        let directory = TemporaryDirectory("map-heat")
        try await Self.render([], [Self.asia], into: directory.path("all"))
        try await Self.render(["--hide", "heat"], [Self.asia], into: directory.path("hidden"))
        try await Self.render(["--layers", "heat"], [Self.asia], into: directory.path("weighed"))
        try await Self.render(["--layers", "heat", "--paint", "heat:heatmap-weight=1"], [Self.asia], into: directory.path("one"))

        // The heat layer's cells at zoom 2, decoded by the witness: where many quakes share an
        // 8-pixel cell (most of them hidden: the summaries), and lone quakes far from any other.
        let placed = try await Self.heatCells(Self.asia)
        let dense = placed.filter { $0.count >= 5 }.map(\.pixel)
        let lone = placed.filter { cell in
            cell.count == 1 && !placed.contains { $0.pixel != cell.pixel && hypot($0.pixel[0] - cell.pixel[0], $0.pixel[1] - cell.pixel[1]) < 36 }
        }.map(\.pixel)

        let present = try await Self.diff(directory.path("all/asia.png"), directory.path("hidden/asia.png"), places: ["dense": (4, dense)])
        let underQuakes = try Self.place(present, "dense")
        #expect(underQuakes.points >= 50, "\(underQuakes)")
        #expect(underQuakes.near * 10 >= underQuakes.points * 9, "the heat shows where many quakes are: \(underQuakes)")
        #expect((present["all"]?.number ?? 0) >= 10_000, "\(present)")

        let weighed = try await Self.diff(directory.path("weighed/asia.png"), directory.path("one/asia.png"),
                                          places: ["dense": (2, dense), "lone": (2, lone)])
        let many = try Self.place(weighed, "dense"), one = try Self.place(weighed, "lone")
        #expect(many.brighter * 10 >= many.points * 9, "weighed by point_count, a cell of many quakes is hotter: \(many)")
        #expect(one.points >= 5 && one.near * 10 <= one.points, "a lone quake weighs 1 either way: \(one)")
    }
    /// Issue 48.4: the preview draws `style.json`'s own land, plate boundaries and heat (the same
    /// layer definitions, on its canvas): taking a layer out of the page changes the picture
    /// where that layer is, and only there: the plate boundaries along the Pacific ring, the heat
    /// where many quakes share a cell, the land over Australia and not over the open Pacific.
    @Test func thePreviewDrawsTheStylesLandPlateBoundariesAndHeat() async throws {
        let bundle = try await DemoBundle.shared.value
        let page = bundle.appendingPathComponent("preview.html").absoluteString + "#2/15/150"
        let directory = TemporaryDirectory("preview-layers")
        var size = ""
        func shot(without layer: String) async throws -> URL {
            let file = directory.path("\(layer.isEmpty ? "all" : layer).png")
            // Once drawn, the layer leaves the page's copy of the style's layers and the page draws again.
            let expression = "(() => { if (!document.body.dataset.firstPaintMs) return ''; if (!window.qbOut) { window.qbOut = true; "
                + "data.map.layers = data.map.layers.filter(l => l.id !== '\(layer)'); changed(); "
                + "requestAnimationFrame(() => { window.qbDrawn = true; }); return ''; } return window.qbDrawn ? innerWidth + ' ' + innerHeight : ''; })()"
            let visit = try await PreviewBrowserTests.visit(page, until: expression, screenshot: file)
            #expect(visit.value != nil && visit.errors.isEmpty, "\(visit)")
            size = visit.value ?? ""
            return file
        }
        let all = try await shot(without: "")
        let viewport = size.split(separator: " ").compactMap { Double($0) }
        try #require(viewport.count == 2, "the page's size: \(size)")
        let view = View(name: "preview", lon: 150, lat: 15, zoom: 2, width: viewport[0], height: viewport[1])

        let (pacific, others) = try Self.boundaryPoints(view)
        let plates = try await Self.diff(all, try await shot(without: "plate-boundaries"),
                                                     places: ["pacific": (3, pacific), "others": (3, others)])
        let ring = try Self.place(plates, "pacific")
        #expect(ring.points >= 1_000 && ring.near * 2 >= ring.points, "the plate boundaries along the Pacific ring: \(ring)")
        #expect((plates["away"]?.number ?? .infinity) * 100 <= (plates["all"]?.number ?? 0), "and nowhere else: \(plates)")

        let dense = try await Self.heatCells(view).filter { $0.count >= 5 }.map(\.pixel)
        let heat = try await Self.diff(all, try await shot(without: "heat"), places: ["dense": (6, dense)])
        let hot = try Self.place(heat, "dense")
        #expect(hot.points >= 50 && hot.near * 10 >= hot.points * 9, "the heat where many quakes are: \(hot)")

        let australia = view.box(124, -30, 140, -20), open = view.box(-150, -20, -130, -5)
        let land = try await Self.diff(all, try await shot(without: "land"), boxes: ["australia=\(australia)", "open=\(open)"])
        let corners = australia.split(separator: ",").map { Double($0)! }
        #expect((land["australia"]?.number ?? 0) >= (corners[2] - corners[0]) * (corners[3] - corners[1]) * 0.8 && land["open"]?.number == 0, "\(land)")
    }
}

/// The demo's bundle (Scripts/demo: M4.5+ quakes of 1973–2024 from the three samples it serves,
/// exported with --max-zoom 8), made once for the picture tests from the same samples.
enum DemoBundle {
    static let shared = Task { try await make() }

    private static func make() async throws -> URL {
        ProofBundle.removeStaleCopies(prefix: "quake-bake-demo-")
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("quake-bake-demo-\(getpid())")
        try? FileManager.default.removeItem(at: workspace)
        for sample in ["query-m6-1973-2023.csv.gz", "query-m4.5-2010-2020-sample.geojson.gz", "query-m4.5-2020-2024-antimeridian-window.geojson.gz"] {
            _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--quiet", "--from", TestData.usgs(sample).path]).checked()
        }
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--quiet", "--max-zoom", "8", "--min-magnitude", "4.5",
                                        "--since", "1973-01-01", "--until", "2025-01-01"]).checked()
        return workspace.appendingPathComponent("bundles/current").resolvingSymlinksInPath()
    }
}

import Foundation
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `quake-bake serve` over real HTTP on loopback (issue 15): the page with MapLibre GL JS
/// from the binary, the bundle's style pointed at the server, tiles with Content-Encoding
/// gzip, ETags and 304s, 404 for what does not exist; and MapLibre Native draws the served
/// style and tiles around Ridgecrest.
@Suite struct ServeTests {
    struct View: Decodable { let quake: Int }

    @Test(.tags(.renderer), .unlessSkipped(.renderer)) func servesTheBundleForAMapInABrowser() async throws {
        let directory = TemporaryDirectory("serve")
        let root = try await Self.exportedWorkspace(in: directory, [])

        let server = try ServeProcess(["--workspace", root, "--port", "0", "--quiet"], log: directory.path("serve.log"))
        defer { server.stop() }
        let base = server.url
        #expect(base.host == "127.0.0.1", "loopback by default")

        let session = URLSession(configuration: .ephemeral)
        func get(_ path: String, _ headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
            var request = URLRequest(url: URL(string: path, relativeTo: base)!)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await session.data(for: request)
            return (data, response as! HTTPURLResponse)
        }

        let (page, pageResponse) = try await get("/")
        #expect(pageResponse.statusCode == 200 && String(decoding: page, as: UTF8.self).contains("/maplibre-gl.js"))
        let (script, _) = try await get("/maplibre-gl.js")
        #expect(script.count > 900_000 && String(decoding: script.prefix(200), as: UTF8.self).contains("MapLibre GL JS"))
        let (styleData, _) = try await get("/style.json")
        let style = try #require(try JSONSerialization.jsonObject(with: styleData) as? [String: Any])
        let source = try #require((style["sources"] as? [String: [String: Any]])?["quakes"])
        #expect(source["tiles"] as? [String] == ["\(base.absoluteString)tiles/{z}/{x}/{y}.pbf"])

        // The basemap and the heat as the bundle's style.json has them (one definition), the
        // basemap's GeoJSON sources read from this server.
        let bundle = URL(fileURLWithPath: root).appendingPathComponent("bundles/current")
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("style.json"))) as? [String: Any])
        func layers(_ style: [String: Any]) -> [NSDictionary] {
            (style["layers"] as? [[String: Any]] ?? []).filter { ["land", "plate-boundaries", "heat"].contains($0["id"] as? String) }.map { $0 as NSDictionary }
        }
        #expect(layers(style).count == 3 && layers(style) == layers(written))
        for (name, file) in [("land", "land.geojson"), ("plates", "plate-boundaries.geojson")] {
            let served = try #require((style["sources"] as? [String: [String: Any]])?[name])
            #expect(served["data"] as? String == "\(base.absoluteString)\(file)")
            let (data, response) = try await get("/\(file)")
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/geo+json")
            #expect(data == (try Data(contentsOf: bundle.appendingPathComponent(file))), "\(file) as the bundle holds it")
        }

        // Ridgecrest at zoom 9: a tile with quakes, gzip on the wire, cached by ETag.
        let (tile, tileResponse) = try await get("/tiles/9/88/201.pbf")
        #expect(tileResponse.statusCode == 200)
        #expect(tileResponse.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
        let etag = try #require(tileResponse.value(forHTTPHeaderField: "ETag"))
        let tileFile = directory.path("tile.pbf")
        try tile.write(to: tileFile)
        let layers = try JSONDecoder().decode([String: DecodedLayer].self, from: await WitnessScript.run("tiles_witness.py", ["decode", tileFile.path]))
        #expect((layers["quakes"]?.features.count ?? 0) > 0)
        let (_, again) = try await get("/tiles/9/88/201.pbf", ["If-None-Match": etag])
        #expect(again.statusCode == 304)
        for missing in ["/tiles/15/0/0.pbf", "/tiles/3/99/1.pbf", "/tiles/a/b/c.pbf", "/nothing", "/../etc/passwd"] {
            let (_, response) = try await get(missing)
            #expect(response.statusCode == 404, "\(missing)")
        }

        // MapLibre GL JS in headless Chromium (software WebGL) draws the served map around
        // Ridgecrest, at least 100 quakes of the 2019 sequence, without a script error.
        let browser = try await PreviewBrowserTests.visit(base.absoluteString + "#9/35.7/-117.6",
                                                          until: "document.body.dataset.idle && document.body.dataset.inView")
        #expect((browser.value.flatMap { Int($0) } ?? 0) >= 100, "\(browser)")
        #expect(browser.errors.isEmpty, "\(browser.errors)")
        // And over the world: its land and plate boundaries drawn, its heatmap a heatmap.
        let world = try await PreviewBrowserTests.visit(
            base.absoluteString + "#1/15/150",
            until: "document.body.dataset.idle && [map.getLayer('heat') && map.getLayer('heat').type]"
                + ".concat(['land', 'plate-boundaries'].map(id => map.queryRenderedFeatures({ layers: [id] }).length)).join(' ')")
        let drawn = (world.value ?? "").split(separator: " ")
        #expect(drawn.count == 3 && drawn[0] == "heatmap" && drawn.dropFirst().allSatisfy { (Int($0) ?? 0) >= 20 }, "\(world)")
        #expect(world.errors.isEmpty, "\(world.errors)")

        // MapLibre Native, fed the served style over HTTP, draws quakes around Ridgecrest.
        let pictures = directory.path("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let views = try JSONDecoder().decode([String: View].self, from: await WitnessScript.run(
            "render_style.py", ["--style-url", "\(base.absoluteString)style.json", pictures.path, "ridgecrest:-117.6:35.7:9"]))
        #expect((views["ridgecrest"]?.quake ?? 0) >= 200, "\(views)")
    }

    /// With a recent layer (`--recent-days`), the served style reads `recent.geojson` from the
    /// server and MapLibre GL JS draws its quakes over the tiles' (the 196 CONUS quakes from
    /// 2019-11-10 on), counted in `data-in-view` with the others. Drawn in Chromium, so a
    /// renderer test, as `servesTheBundleForAMapInABrowser` is.
    @Test(.tags(.renderer), .unlessSkipped(.renderer)) func servesTheRecentLayer() async throws {
        let directory = TemporaryDirectory("serve-recent")
        let root = try await Self.exportedWorkspace(in: directory, ["--recent-days", "30"])
        let server = try ServeProcess(["--workspace", root, "--port", "0", "--quiet"], log: directory.path("serve.log"))
        defer { server.stop() }
        let base = server.url

        let (styleData, _) = try await URLSession(configuration: .ephemeral).data(from: URL(string: "style.json", relativeTo: base)!)
        let style = try #require(try JSONSerialization.jsonObject(with: styleData) as? [String: Any])
        let recent = try #require((style["sources"] as? [String: [String: Any]])?["recent"])
        #expect(recent["data"] as? String == "\(base.absoluteString)recent.geojson")
        let (file, response) = try await URLSession(configuration: .ephemeral).data(from: URL(string: "recent.geojson", relativeTo: base)!)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/geo+json")
        let features = try #require((try JSONSerialization.jsonObject(with: file) as? [String: Any])?["features"] as? [Any])
        #expect(features.count == 196)

        let browser = try await PreviewBrowserTests.visit(
            base.absoluteString + "#3/38/-97",
            until: "document.body.dataset.idle && [map.queryRenderedFeatures({ layers: ['recent'] }).length, +document.body.dataset.inView].join(' ')")
        let counts = (browser.value ?? "").split(separator: " ").compactMap { Int($0) }
        #expect(counts.count == 2 && counts[0] >= 150 && counts[1] > counts[0], "\(browser)")
        #expect(browser.errors.isEmpty, "\(browser.errors)")

        // The bar above the map: the legend as the style draws it, the recent layer from its boundary.
        let legend = try await PreviewBrowserTests.visit(base.absoluteString + "#3/38/-97",
                                                         until: "document.body.dataset.idle && document.body.dataset.legend")
        #expect(legend.value == "M <3M 3–4M 4–5M 5–6M 6–7M ≥7more, hidden at this zoomsince 2019-11-10, all shown", "\(legend)")
    }

    /// A `serve` left running beside cron exports follows `current` and lets go of the versions
    /// pruned since: no file of a removed version stays open in it (their disk space comes back).
    @Test func followsNewVersionsAndLetsGoOfPrunedOnes() async throws {
        let directory = TemporaryDirectory("serve-prune")
        let root = try await Self.exportedWorkspace(in: directory, ["--keep", "1"])
        let server = try ServeProcess(["--workspace", root, "--port", "0", "--quiet"], log: directory.path("serve.log"))
        defer { server.stop() }
        let base = server.url
        func tileETag() async throws -> String {
            let (_, response) = try await URLSession(configuration: .ephemeral).data(from: URL(string: "tiles/0/0/0.pbf", relativeTo: base)!)
            return try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag"))
        }
        let bundles = URL(fileURLWithPath: root).appendingPathComponent("bundles")
        func currentVersion() throws -> String {
            try FileManager.default.destinationOfSymbolicLink(atPath: bundles.appendingPathComponent("current").path)
        }
        let first = try currentVersion()
        #expect(try await tileETag().contains(first))

        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("feed-all_week-2018-06.geojson.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--keep", "1"]).checked()
        let second = try currentVersion()
        #expect(second != first && !FileManager.default.fileExists(atPath: bundles.appendingPathComponent(first).path), "the first version is pruned")
        #expect(try await tileETag().contains(second))

        let open = try ChildProcess.openDescriptors(of: server.process.processIdentifier)
        #expect(open.contains { $0.hasPrefix(bundles.appendingPathComponent(second).path) }, "\(open)")
        #expect(!open.contains { $0.contains(first) }, "files of the pruned version still open: \(open.filter { $0.contains(first) })")
    }

    /// A workspace in `directory` holding the 2019 CONUS sample, exported with `flags`; its path.
    static func exportedWorkspace(in directory: TemporaryDirectory, _ flags: [String]) async throws -> String {
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-conus-m2.5-2019.geojson.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet"] + flags).checked()
        return root
    }
}

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

    @Test func servesTheBundleForAMapInABrowser() async throws {
        let directory = TemporaryDirectory("serve")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-conus-m2.5-2019.geojson.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet"]).checked()

        let server = Process()
        server.executableURL = URL(fileURLWithPath: try QuakeBakeCLI.path())
        server.arguments = ["serve", "--workspace", root, "--port", "0", "--quiet"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let line = try #require(StandInProcess.firstLine(of: output.fileHandleForReading, process: server, timeout: 60))
        let base = try #require(URL(string: line))
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

        // MapLibre Native, fed the served style over HTTP, draws quakes around Ridgecrest.
        let pictures = directory.path("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let views = try JSONDecoder().decode([String: View].self, from: await WitnessScript.run(
            "render_style.py", ["--style-url", "\(base.absoluteString)style.json", pictures.path, "ridgecrest:-117.6:35.7:9"]))
        #expect((views["ridgecrest"]?.quake ?? 0) >= 200, "\(views)")
    }
}

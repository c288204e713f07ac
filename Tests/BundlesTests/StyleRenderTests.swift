import Foundation
import Testing
import TestSupport

/// The bundle's `style.json` draws its tiles in MapLibre Native, the renderer of iOS and
/// Android map apps (the `mapli` witness), offline, and the picture shows where quakes are:
/// many quake pixels over Japan at zoom 5, next to none over central Brazil (issue 14).
@Suite(.tags(.renderer), .unlessSkipped(.renderer)) struct StyleRenderTests {
    struct View: Decodable {
        let quake: Int
        let background: Int
        let pixels: Int
    }

    @Test func theBundlesOwnStyleRendersItsQuakesWhereTheyAre() async throws {
        let directory = TemporaryDirectory("style")
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet", "--from", TestData.usgs("query-m6-1973-2023.csv.gz").path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", root, "--quiet", "--max-zoom", "6"]).checked()
        let bundle = directory.path("ws/bundles/current")

        let style = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("style.json"))) as? [String: Any])
        #expect(style["version"] as? Int == 8)
        #expect(style["glyphs"] == nil && style["sprite"] == nil, "nothing fetched from elsewhere")
        let sources = try #require(style["sources"] as? [String: [String: Any]])
        // Fifty years of M6+ quakes: by default the last 7–14 days are a recent layer of their own, from recent.geojson;
        // the basemap's land and plate boundaries come from files beside the style (BasemapTests).
        #expect(sources.keys.sorted() == ["land", "plates", "quakes", "recent"])
        #expect(sources["quakes"]?["url"] as? String == "pmtiles://quakes.pmtiles")
        #expect(sources["recent"]?["data"] as? String == "recent.geojson")
        let manifest = try String(contentsOf: bundle.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"path\": \"style.json\"") || manifest.contains("\"path\":\"style.json\""))

        let pictures = directory.path("pictures")
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let views = try JSONDecoder().decode([String: View].self, from: await WitnessScript.run(
            "render_style.py", [bundle.path, pictures.path, "japan:138:37:5", "brazil:-50:-12:5", "pacific:170:10:1"]))
        let japan = try #require(views["japan"]), brazil = try #require(views["brazil"]), pacific = try #require(views["pacific"])
        #expect(japan.quake >= 1_000, "\(japan)")
        #expect(brazil.quake * 10 <= japan.quake, "\(brazil) against \(japan)")
        #expect(brazil.quake * 100 <= brazil.pixels, "central Brazil has next to no quakes: \(brazil)")
        #expect(pacific.quake >= 1_000, "\(pacific)")
    }
}

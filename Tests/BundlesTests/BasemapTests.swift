import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// Issue 48.1: every bundle's `style.json` draws land and plate boundaries under the quakes
/// from files shipped beside it, credits them as their licences ask, and `--basemap none`
/// leaves them out.
@Suite struct BasemapTests {
    static func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func layerIDs(_ style: [String: Any]) -> [String] {
        (style["layers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    /// The files are the project's `data/basemap` (the binary carries their bytes), and the style
    /// draws them, under the heat and the quakes, with their credits.
    @Test func theStyleDrawsTheShippedLandAndPlateBoundariesWithTheirCredits() async throws {
        let bundle = try await ProofBundle.shared.value.directory
        for name in ["land.geojson", "plate-boundaries.geojson"] {
            let shipped = try Data(contentsOf: bundle.appendingPathComponent(name))
            #expect(shipped == (try Data(contentsOf: TestData.projectRoot.appendingPathComponent("data/basemap/\(name)"))), "\(name) as in data/basemap")
            let features = try #require((try JSONSerialization.jsonObject(with: shipped) as? [String: Any])?["features"] as? [[String: Any]])
            #expect(features.count == (name == "land.geojson" ? 177 : 241), "\(name): every feature of the source")
        }
        let style = try Self.json(bundle.appendingPathComponent("style.json"))
        #expect(Self.layerIDs(style) == ["background", "land", "plate-boundaries", "heat", "clusters", "quakes"])
        let sources = try #require(style["sources"] as? [String: [String: Any]])
        #expect(sources["land"]?["data"] as? String == "land.geojson" && sources["plates"]?["data"] as? String == "plate-boundaries.geojson")
        let credit = "Plate boundaries: Bird (2003), PB2002; conversion by Ahlenius/Nordpil, ODC-By 1.0"
        #expect(sources["plates"]?["attribution"] as? String == credit)
        #expect((sources["land"]?["attribution"] as? String)?.contains("Natural Earth") == true)
        for readme in ["README.md", "docs/bundle.md", "data/basemap/README.md"] {
            #expect(try String(contentsOf: TestData.projectRoot.appendingPathComponent(readme), encoding: .utf8).contains(credit), "\(readme) carries the credit")
        }
        let preview = try String(contentsOf: bundle.appendingPathComponent("preview.html"), encoding: .utf8)
        #expect(preview.contains(credit), "the preview shows the credit under its map")
    }

    /// `--basemap none` leaves the files, the sources and the layers out (the heat and the quakes
    /// stay; `export: basemap: none` in a configuration sets the same option: ConfigurationFileTests);
    /// the default brings them back, and the delta from the version without them names them.
    @Test func basemapNoneLeavesThemOut() async throws {
        let dir = TemporaryDirectory("basemap")
        _ = try TestStore(workspace: dir.url, samples: ["feed-2.5_month-2025-10.geojson.gz"])
        let plain = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--max-zoom", "4", "--basemap", "none", "--quiet"])
        #expect(plain.status == 0, "\(plain.standardError)")
        let bundle = dir.path("bundles/current")
        for name in ["land.geojson", "plate-boundaries.geojson"] {
            #expect(!FileManager.default.fileExists(atPath: bundle.appendingPathComponent(name).path), "\(name)")
        }
        let style = try Self.json(bundle.appendingPathComponent("style.json"))
        #expect(Self.layerIDs(style) == ["background", "heat", "clusters", "quakes"])
        #expect((style["sources"] as? [String: Any])?.keys.sorted() == ["quakes"])
        let first = try Self.json(bundle.appendingPathComponent("manifest.json"))
        #expect(((first["options"] as? [String: Any])?["basemap"] as? String) == "none")
        #expect(!(try String(contentsOf: bundle.appendingPathComponent("preview.html"), encoding: .utf8)).contains("Natural Earth"))
        let noneVersion = try #require(first["bundle_version"] as? String)

        let withBasemap = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--max-zoom", "4", "--quiet"])
        #expect(withBasemap.status == 0, "\(withBasemap.standardError)")
        #expect(Self.layerIDs(try Self.json(bundle.appendingPathComponent("style.json"))).contains("plate-boundaries"))
        let manifest = try Self.json(bundle.appendingPathComponent("manifest.json"))
        let delta = try #require((manifest["deltas"] as? [[String: Any]])?.first { $0["base"] as? String == noneVersion })
        let changed = try #require(delta["changed_files"] as? [String])
        #expect(changed.contains("land.geojson") && changed.contains("plate-boundaries.geojson") && changed.contains("style.json"), "\(changed)")
    }
}

import Foundation
import Testing
import TestSupport

/// `quake-bake export` as a process: flags, exit codes, messages.
@Suite struct ExportCommandTests {
    @Test func exportsIntoTheWorkspaceAndThenFindsNothingChanged() async throws {
        let dir = TemporaryDirectory("cli")
        _ = try TestStore(workspace: dir.url, samples: ["feed-2.5_month-2025-10.geojson.gz"])
        let arguments = ["export", "--workspace", dir.url.path, "--max-zoom", "5", "--magnitude-floor", "0:6,3:4.5", "--attributes", "id,mag,time,minzoom",
                         "--since", "2025-10-01", "--bbox", "-180,-90,180,90"]
        let first = try await QuakeBakeCLI.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("exported 1,"))
        let bundle = dir.url.appendingPathComponent("bundles/current")
        for file in ["quakes.mbtiles", "quakes.pmtiles", "quakes.sqlite", "timeline.json", "manifest.json", "preview.html", "geojson/z5.geojson.gz"] {
            #expect(FileManager.default.fileExists(atPath: bundle.appendingPathComponent(file).path), "\(file)")
        }
        let manifest = try String(contentsOf: bundle.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"magnitude_floor\": \"0:6,3:4.5\""))
        #expect(manifest.contains("\"attributes\": [\n      \"id\",\n      \"mag\",\n      \"time\",\n      \"minzoom\"\n    ]"))
        let second = try await QuakeBakeCLI.run(arguments)
        #expect(second.status == 0 && second.standardError.contains("nothing changed"))
        let quiet = try await QuakeBakeCLI.run(arguments + ["--quiet"])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty)
    }

    @Test(arguments: [["--cell-size", "48"], ["--max-zoom", "17"], ["--magnitude-floor", "3"], ["--attributes", "id,colour"],
                      ["--bbox", "10,20,30"], ["--since", "yesterday"], ["--since", "2024-01-01", "--until", "2023-01-01"], ["--keep", "0"],
                      ["--thinning", "random"], ["--style", "/nonexistent/style.json"], ["--basemap", "osm"]])
    func badFlagsAreUsageErrors(_ flags: [String]) async throws {
        let dir = TemporaryDirectory("cli")
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path] + flags)
        #expect(outcome.status == 64, "\(flags): \(outcome.standardError)")
        // In ArgumentParser's form, as every command's usage errors (issue 17).
        #expect(outcome.standardError.hasPrefix("Error: ") && outcome.standardError.contains("Usage: quake-bake export"), "\(outcome.standardError)")
    }

    /// A file system error names the path and the system's reason, not Foundation's dump of its fields.
    @Test func anOutputDirectoryThatCannotBeMadeIsNamed() async throws {
        let dir = TemporaryDirectory("cli")
        _ = try TestStore(workspace: dir.url, samples: ["feed-2.5_month-2025-10.geojson.gz"])
        let blocker = dir.path("a-file")
        try Data("not a directory".utf8).write(to: blocker)
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--max-zoom", "3", "--out", blocker.appendingPathComponent("bundles").path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("\(blocker.path)/bundles: Not a directory") && !outcome.standardError.contains("Domain="),
                "\(outcome.standardError)")
    }

    @Test func aMissingStoreSaysWhatToDo() async throws {
        let dir = TemporaryDirectory("cli")
        let workspace = dir.path("never-made")
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("quake-bake index"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path), "a failed export creates nothing")
    }

    @Test func aUsersStyleTemplateBecomesTheBundlesStyle() async throws {
        let dir = TemporaryDirectory("cli")
        _ = try TestStore(workspace: dir.url, samples: ["feed-2.5_month-2025-10.geojson.gz"])
        let template = dir.path("mine.json")
        try #"{"version": 8, "name": "mine", "sources": {"quakes": {"type": "vector", "url": "https://example.org/tiles.json"}},"#
            .appending(#" "layers": [{"id": "dots", "type": "circle", "source": "quakes", "source-layer": "quakes"}]}"#)
            .write(to: template, atomically: true, encoding: .utf8)
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--max-zoom", "4", "--style", template.path, "--quiet"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let styleData = try Data(contentsOf: dir.path("bundles/current/style.json"))
        let style = try #require(try JSONSerialization.jsonObject(with: styleData) as? [String: Any])
        #expect(style["name"] as? String == "mine")
        #expect(((style["layers"] as? [[String: Any]])?.map { $0["id"] as? String }) == ["dots"])
        let source = (style["sources"] as? [String: [String: Any]])?["quakes"]
        #expect(source?["url"] as? String == "pmtiles://quakes.pmtiles", "the source points at the bundle's own tiles")
        #expect(FileManager.default.fileExists(atPath: dir.path("bundles/current/land.geojson").path), "the basemap's files, for a style that wants them")

        // A template that is not a style is refused before anything is written, naming the file.
        try #"{"version": 8, "sources": {}, "layers": []}"#.write(to: template, atomically: true, encoding: .utf8)
        let refused = try await QuakeBakeCLI.run(["export", "--workspace", dir.url.path, "--style", template.path])
        #expect(refused.status == 64 && refused.standardError.contains(template.path) && refused.standardError.contains("quakes"), "\(refused.standardError)")
    }
}

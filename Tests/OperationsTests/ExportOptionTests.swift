import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeOperations
import Testing
import TestSupport
@testable import QuakeBundles

/// Issue 49.3: each export option is declared once (`ExportOption`), and the command line, the
/// configuration's `export:` section, the manifest and `--help` are all made from the declarations.
@Suite struct ExportOptionTests {
    /// A value other than the default for every option, as the command line writes it.
    static let samples: [String: String] = [
        "since": "2025-10-02T00:00:00Z", "until": "2025-10-30T00:00:00Z", "min-magnitude": "3.5", "bbox": "-170,-60,170,60",
        "event-type": "earthquake,quarry blast", "min-zoom": "1", "max-zoom": "6", "thinning": "grid", "cell-size": "32", "per-cell": "2",
        "magnitude-floor": "0:6,3:5", "stride": "2", "clusters": "false", "max-tile-bytes": "400000", "max-tile-features": "100000",
        "attributes": "id,mag,time", "geojson-max-features": "1000", "name": "tremors", "style": "style.json", "basemap": "none",
        "recent-days": "14", "keep": "2", "deltas": "false",
    ]

    /// A style for `--style`, in `directory`.
    static func writeStyle(in directory: URL) throws {
        let style = #"{"version": 8, "sources": {"quakes": {"type": "vector"}}, "layers": [{"id": "q", "type": "circle", "source": "quakes", "source-layer": "quakes"}]}"#
        try Data(style.utf8).write(to: directory.appendingPathComponent("style.json"))
    }

    /// The sample of `option`, a file's path made absolute in `directory`.
    static func sample(_ option: ExportOption, in directory: URL) -> String {
        let text = samples[option.flag] ?? ""
        return option.form == .file ? directory.appendingPathComponent(text).path : text
    }

    /// The options with every sample set (through the declarations).
    static func sampled(in directory: URL, _ chosen: [ExportOption] = ExportOption.all) throws -> ExportOptions {
        var options = ExportOptions()
        for option in chosen { try option.set(sample(option, in: directory), in: &options) }
        return options
    }

    /// Every option has a sample, and its sample is not the default; flags, keys and manifest keys are each used once.
    @Test func theDeclarationsAreWholeAndDistinct() throws {
        let directory = TemporaryDirectory("options")
        try Self.writeStyle(in: directory.url)
        #expect(Set(ExportOption.all.map(\.flag)) == Set(Self.samples.keys), "a sample for every option, no other")
        for option in ExportOption.all {
            #expect(try Self.sampled(in: directory.url, [option]) != ExportOptions(), "\(option.flag)'s sample changes the options")
        }
        let keys = ExportOption.all.compactMap(\.key), manifestKeys = ExportOption.all.compactMap { $0.manifest.map { "\($0.group).\($0.key)" } }
        #expect(Set(ExportOption.all.map(\.flag)).count == ExportOption.all.count)
        #expect(Set(keys).count == keys.count && Set(manifestKeys).count == manifestKeys.count)
        #expect(ExportOption.all.filter(\.isHidden).map(\.flag) == ["max-tile-bytes", "max-tile-features"], "only the test flags are hidden")
    }

    /// Each option, set alone, changes its own member of the manifest's `options` and no other
    /// (`keep` and `deltas`, which shape no content, none).
    @Test func eachOptionIsItsOwnManifestMember() throws {
        let directory = TemporaryDirectory("options")
        try Self.writeStyle(in: directory.url)
        func members(_ options: ExportOptions) -> [String: String] {
            guard case .object(let top) = options.contentJSON else { return [:] }
            var flat: [String: String] = [:]
            for (name, value) in top {
                if case .object(let grouped) = value, ["selection", "thinning"].contains(name) {
                    for (key, inner) in grouped { flat["\(name).\(key)"] = inner.text }
                } else {
                    flat["top.\(name)"] = value.text
                }
            }
            return flat
        }
        let defaults = members(ExportOptions())
        #expect(defaults.count == ExportOption.all.filter { $0.manifest != nil }.count)
        for option in ExportOption.all {
            let changed = members(try Self.sampled(in: directory.url, [option])).filter { defaults[$0.key] != $0.value }.map(\.key)
            #expect(changed == option.manifest.map { ["\($0.group.rawValue).\($0.key)"] } ?? [], "\(option.flag)")
        }
    }

    /// The manifest's `options` keep their keys, order and bytes (as quake-bake 0.2.0 wrote them).
    @Test func theManifestsOptionsKeepTheirBytes() {
        let expected = """
            {"selection":{"since":null,"until":null,"min_magnitude":null,"bbox":null,"event_types":[]},\
            "thinning":{"min_zoom":0,"max_zoom":10,"method":"spacing","cell_size":64,"per_cell":1,"magnitude_floor":"","stride":1,\
            "clusters":true,"max_tile_bytes":500000,"max_tile_features":200000},\
            "attributes":["id","mag","time","depth_km","place","event_type","status","tsunami","alert","sig","minzoom"],\
            "geojson_max_features":50000,"name":"quakes","style":null,"basemap":"natural-earth","recent_days":"auto"}
            """
        #expect(ExportOptions().contentJSON.text == expected)
    }

    /// Every key of the `export:` section lands where its flag does; a relative style is the file's.
    @Test func everyKeyIsReadFromTheConfiguration() throws {
        let directory = TemporaryDirectory("options")
        try Self.writeStyle(in: directory.url)
        var lines = ["export:"]
        for option in ExportOption.configurable {
            let text = Self.samples[option.flag] ?? ""
            let value = switch option.form {
            case .onOff: text
            case .list: "[" + text.split(separator: ",").joined(separator: ", ") + "]"
            case .value, .file, .directory: "\"\(text)\""
            }
            lines.append("  \(option.key ?? ""): \(value)")
        }
        let configuration = try ConfigurationFile.parse(lines.joined(separator: "\n"), source: directory.path("bake.yaml").path)
        #expect(configuration.export == (try Self.sampled(in: directory.url, ExportOption.configurable)))
        #expect(ExportOption.configurable.count == ExportOption.all.count - 2, "every option but the hidden ones")
    }

    /// Every flag is taken by `export` and lands in the manifest as the declarations make it;
    /// a flag's mistake is exit 64 naming the flag.
    @Test func everyFlagReachesTheManifest() async throws {
        let directory = TemporaryDirectory("options")
        try Self.writeStyle(in: directory.url)
        let workspace = directory.path("workspace").path
        let index = try await QuakeBakeCLI.run(["index", "--workspace", workspace, "--from", TestData.usgs("feed-2.5_month-2025-10.geojson.gz").path, "-q"])
        #expect(index.status == 0, "\(index.standardError)")
        var arguments = ["export", "--workspace", workspace, "-q"]
        for option in ExportOption.all {
            let text = Self.sample(option, in: directory.url)
            arguments += option.form == .onOff ? [text == "true" ? option.longFlag : "--no-" + option.flag] : [option.longFlag, text]
        }
        let export = try await QuakeBakeCLI.run(arguments)
        #expect(export.status == 0, "\(export.standardError)")
        let manifest = try Data(contentsOf: directory.path("workspace/bundles/current/manifest.json"))
        let options = try #require(JSON.parse(manifest)?["options"])
        #expect(options.text == (try Self.sampled(in: directory.url)).contentJSON.text)

        // `--keep` and `--deltas`, not in the manifest: two more versions (another name each),
        // two versions kept (3 by default) and no deltas (by default from every older version).
        for name in ["tremors-2", "tremors-3"] {
            let again = try await QuakeBakeCLI.run(arguments + ["--name", name])
            #expect(again.status == 0, "\(again.standardError)")
        }
        let bundles = directory.path("workspace/bundles")
        let versions = try FileManager.default.contentsOfDirectory(atPath: bundles.path).filter { $0.hasPrefix("v") }
        #expect(versions.count == 2, "\(versions)")
        #expect(!FileManager.default.fileExists(atPath: bundles.appendingPathComponent("current/deltas").path))

        let bad = try await QuakeBakeCLI.run(["export", "--workspace", workspace, "--cell-size", "48"])
        #expect(bad.status == 64 && bad.standardError.contains("--cell-size must be a power of two from 4 to 256 pixels, not 48"), "\(bad.standardError)")
    }

    /// `--help` of `export` and `bake` shows each declared option with its value's name and the
    /// declared help, hides the hidden ones, and `export` has no option the declarations lack
    /// but those of where the bundle goes and of every command.
    @Test(arguments: ["export", "bake"])
    func theHelpIsTheDeclarations(command: String) async throws {
        let help = try await QuakeBakeCLI.run([command, "--help"]).checked().standardOutput
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let selection: Set<String> = ["since", "until", "min-magnitude", "bbox", "event-type"]
        for option in ExportOption.all where command == "export" || !selection.contains(option.flag) {
            let usage = option.form == .onOff ? "\(option.longFlag)/--no-\(option.flag)" : "\(option.longFlag) <\(option.valueName)>"
            if option.isHidden {
                #expect(!words.contains(option.longFlag), "\(command) --help hides \(option.longFlag)")
            } else {
                #expect(words.contains(usage), "\(command) --help shows \(usage)")
                #expect(words.contains(option.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(command) --help says \(option.help)")
            }
        }
        guard command == "export" else { return }
        let listed = Set(help.split(separator: "\n").compactMap { $0.firstMatch(of: /^\s+(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)/).map { String($0.1) } })
        let declared = Set(ExportOption.all.map(\.flag)).union([RunOption.out.flag, RunOption.workspace.flag]).union(["full", "quiet", "verbose", "log-format", "help", "version"])
        #expect(listed.subtracting(declared).isEmpty, "undeclared: \(listed.subtracting(declared))")
        #expect(listed.count > 20)
    }

    /// A shell completes an option of a few names with them (`--thinning spacing|grid|none`).
    @Test func theShellCompletesTheChoices() async throws {
        let script = try await QuakeBakeCLI.run(["--generate-completion-script", "bash"]).checked().standardOutput
        for option in ExportOption.all where !option.choices.isEmpty {
            let words = "'" + option.choices.joined(separator: "'$'\\n''") + "'"
            #expect(script.contains(words), "\(option.flag): \(words)")
        }
        #expect(ExportOption.all.filter { !$0.choices.isEmpty }.map(\.flag) == ["thinning", "basemap"])
    }

    /// docs/guide/bake.md lists the `export:` section's keys: `out` (a run's, `RunOption.exportSection`) and every configurable option's.
    @Test func theGuideListsEveryKey() throws {
        let guide = try String(contentsOf: TestData.projectRoot.appendingPathComponent("docs/guide/bake.md"), encoding: .utf8)
        let row = try #require(guide.split(separator: "\n").first { $0.hasPrefix("| `export:` |") })
        let listed = row.matches(of: /`([a-z_]+)`/).map { String($0.1) }.filter { $0 != "export" }
        #expect(Set(listed) == Set(ExportOption.configurable.compactMap(\.key) + RunOption.exportSection.compactMap(\.key)), "\(row)")
    }
}

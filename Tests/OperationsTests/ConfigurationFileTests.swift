import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeOperations
import Testing
import TestSupport

/// The bake configuration file: every key lands where it should; typos are errors.
@Suite struct ConfigurationFileTests {
    static let sample = """
        workspace: /var/lib/quake-bake
        service: http://127.0.0.1:8080/fdsnws/event/1
        max_rejects: 20
        selection:
          start: 2024-01-01
          end: 2024-06-30T12:00:00Z
          min_magnitude: 2.5
          max_depth: 70
          bbox: "170,-50,-170,-10"
          event_types: [earthquake, quarry blast]
          catalog: us
        fetch:
          overlap: 25h
          concurrency: 1
          budget: 100
          read_timeout: 2m
          max_attempts: 3
          details: all
          details_per_run: 50
          max_content_mb: 2
        export:
          out: /srv/quakes
          max_zoom: 6
          thinning: grid
          cell_size: 32
          per_cell: 2
          magnitude_floor: "0:6,3:5"
          clusters: false
          keep: 5
          since: 2024-03-01
          min_magnitude: 3
          basemap: none
        """

    @Test func everyKeyLandsInItsOption() throws {
        let c = try ConfigurationFile.parse(Self.sample, source: "bake.yaml")
        #expect(c.run.workspace == "/var/lib/quake-bake")
        #expect(c.fetch.service.absoluteString == "http://127.0.0.1:8080/fdsnws/event/1/")
        #expect(c.run.maxRejects == 20)
        #expect(c.fetch.details == .all && c.fetch.detailsPerRun == 50 && c.fetch.maxContentBytes == 2 << 20)
        #expect(BakeConfiguration().fetch.details == .significant && BakeConfiguration().fetch.detailsPerRun == 200, "the defaults")
        #expect(c.selection.start == ISOTime.parse("2024-01-01"))
        #expect(c.selection.end == ISOTime.parse("2024-06-30T12:00:00Z"))
        #expect(c.selection.minMagnitude == 2.5 && c.selection.maxDepth == 70)
        #expect(c.selection.bbox?.west == 170 && c.selection.bbox?.east == -170)
        #expect(c.selection.eventTypes == ["earthquake", "quarry blast"])
        #expect(c.selection.catalog == "us")
        #expect(c.fetch.overlap == 25 * 3_600_000)
        #expect(c.fetch.concurrency == 1 && c.fetch.requestBudget == 100 && c.fetch.readTimeout == 120 && c.fetch.maxAttempts == 3)
        #expect(c.run.out?.path == "/srv/quakes")
        #expect(c.export.thinning.maxZoom == 6 && c.export.thinning.cellSize == 32 && c.export.thinning.perCell == 2)
        #expect(c.export.thinning.method == .grid)
        #expect(c.export.thinning.magnitudeFloors.description == "0:6,3:5")
        #expect(c.export.thinning.clusters == false)
        #expect(c.export.keep == 5)
        #expect(c.export.selection.since == ISOTime.parse("2024-03-01"))
        #expect(c.export.selection.minMagnitude == 3)
        #expect(c.export.basemap == .none)
    }

    @Test(arguments: [
        ("selection:\n  min_magnitud: 3", "unknown key min_magnitud"),
        ("fetch:\n  concurrency: zero", "concurrency: \"zero\" is not a whole number"),
        ("selection:\n  start: 2024-02-01\n  end: 2024-01-01", "is before --start"),
        ("export:\n  max_zoom: 40", "zoom"),
        ("export:\n  thinning: random", "thinning: \"random\" is not one of spacing, grid, none"),
        ("service: ftp://example.org", "not an http(s) URL"),
        ("selection: [1, 2]", "should be a mapping"),
        ("fetch:\n  overlap: soon", "not a duration"),
        ("fetch:\n  overlap: 1e300d", "fetch overlap: is longer than a year"),
        ("fetch:\n  read_timeout: 2d", "fetch read_timeout: must be 0.001…86400.0 seconds, not 172800.0"),
        ("fetch:\n  concurrency: 64", "fetch concurrency: must be 1…16, not 64"),
        ("fetch:\n  max_body_mb: 17592186044416", "fetch max_body_mb: must be 1…4096, not 17592186044416"),
        ("{ unclosed", "not valid YAML"),
        ("fetch:\n  details: some", "details: \"some\" is not one of significant, all, none"),
        ("fetch:\n  details_per_run: -1", "fetch details_per_run: must be 0…100000, not -1"),
        ("export:\n  recent_days: soon", "recent_days: \"soon\" is not auto, off or a number of days"),
        ("export:\n  recent_days: 400", "export recent_days: must be auto, off or 1…366, not 400"),
        // Odd YAML shapes (issue 46): a key that is a list (`? [a, b]`) once ended `bake` with
        // SIGILL inside the YAML library, and a sexagesimal integer past 2^63 with SIGTRAP.
        ("? [a, b]\n: c\n", "bake.yaml line 1: a key is a list, not a name"),
        ("? {a: 1}\n: c\n", "bake.yaml line 1: a key is a mapping, not a name"),
        ("export:\n  ? [min_zoom]\n  : 3\n", "bake.yaml line 2: a key is a list, not a name"),
        ("max_rejects: 1:0:0:0:0:0:0:0:0:0:0:0:0\n", "max_rejects: \"1:0:0:0:0:0:0:0:0:0:0:0:0\" is not a whole number"),
        ("max_rejects: 99999999999999999999999\n", "max_rejects: \"99999999999999999999999\" is not a whole number"),
        ("max_rejects: !!binary aGVsbG8=\n", "max_rejects: \"aGVsbG8=\" is not a whole number"),
        ("max_rejects: !custom 5x\n", "max_rejects: \"5x\" is not a whole number"),
        ("max_rejects: !!set {a, b}\n", "max_rejects: should be a single value, not a mapping"),
        ("workspace: [a, b]\n", "workspace: should be a single value, not a list"),
        ("max_rejects: -1\n", "bake.yaml max_rejects: must be at least 0, not -1"),
        ("workspace: \"\"\n", "bake.yaml workspace: must not be empty"),
        ("export:\n  out: \"\"\n", "export out: must not be empty"),
        ("selection:\n  start: {year: 2024}\n", "start: should be a single value, not a mapping"),
        ("selection:\n  event_types: [[earthquake]]\n", "event_types: should list single values"),
        ("max_rejects: 1\nmax_rejects: 2\n", "duplicated key(s): 'max_rejects'"),
        ("selection: &s\n  min_magnitude: 2\n  bogus: *s\n", "not valid YAML"),
        ("fetch: { <<: 5 }\n", "bake.yaml line 1: << merges mappings only"),
        ("~: 1\n", "has unknown key ~"),
        ("--- \n...\n--- \nmax_rejects: 1\n", "not valid YAML"),
        ("selection:\n  start: 2024-13-45\n", "start: \"2024-13-45\" is not an ISO-8601 time"),
        ("export:\n  basemap: osm", "basemap: \"osm\" is not one of natural-earth, none"),
        // Parsers shared with the command line once said their option, not the file (found by Scripts/fuzz configuration).
        ("export:\n  magnitude_floor: \"0:/,3:5\"", "export magnitude_floor: `0:/` is not zoom:magnitude"),
        ("export:\n  magnitude_floor: \"3:5,3:4\"", "export magnitude_floor: zoom 3 is given twice"),
        ("export:\n  attributes: [mag, colour]", "export attributes: unknown attribute `colour`"),
    ])
    func mistakesAreNamed(text: String, message: String) {
        do {
            _ = try ConfigurationFile.parse(Data(text.utf8), source: "bake.yaml")
            Issue.record("\(text) was accepted")
        } catch let error as QuakeBakeError {
            #expect(error.kind == .usage)
            #expect(error.description.contains(message), "\(error.description)")
            #expect(error.description.contains("bake.yaml"), "\(error.description)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// "Billion laughs": nine lines whose aliases expand to a billion values (building them took
    /// 4.6 GB in 30 s before it was stopped) are refused before anything is built; so is a file
    /// far bigger than any configuration, or a device.
    @Test func aliasBombsAndHugeFilesAreRefused() throws {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 {
            let refs = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            lines.append("a\(level): &a\(level) [\(refs)]")
        }
        let laughs = lines.joined(separator: "\n") + "\nmax_rejects: 1\n"
        #expect(throws: QuakeBakeError.self) { try ConfigurationFile.parse(laughs, source: "laughs.yaml") }
        do {
            _ = try ConfigurationFile.parse(laughs, source: "laughs.yaml")
        } catch let error as QuakeBakeError {
            #expect(error.kind == .usage && error.description.contains("laughs.yaml holds more than 10,000 values once its YAML aliases are expanded"),
                    "\(error.description)")
        }
        // Nesting past libyaml's depth is invalid YAML, said in a line of reasonable length.
        do {
            _ = try ConfigurationFile.parse("max_rejects: " + String(repeating: "[", count: 100_000), source: "deep.yaml")
            Issue.record("the deep file was accepted")
        } catch let error as QuakeBakeError {
            #expect(error.description.hasPrefix("deep.yaml is not valid YAML: ") && error.description.count < 600, "\(error.description.prefix(700))")
        }
        // A few aliases, as a person might use them, are fine.
        #expect(try ConfigurationFile.parse("fetch: &f { concurrency: 2 }\nselection: { min_magnitude: 2.5 }", source: "ok.yaml").fetch.concurrency == 2)

        let directory = TemporaryDirectory("config")
        let huge = directory.path("huge.yaml")
        try Data(repeating: UInt8(ascii: "#"), count: 2 << 20).write(to: huge)
        for (file, message) in [(huge, "2.0 MB, over the 1.0 MB limit for a configuration file; not read"),
                                (URL(fileURLWithPath: "/dev/zero"), "/dev/zero: a device or socket, not a configuration file")] {
            do {
                _ = try ConfigurationFile.read(file)
                Issue.record("\(file.path) was read")
            } catch let error as QuakeBakeError {
                #expect(error.kind == .usage && error.description.contains(message), "\(error.description)")
            }
        }
    }

    /// The sample on the guide page of `bake`.
    @Test func theDocumentedSampleIsValid() throws {
        let page = try String(contentsOf: TestData.projectRoot.appendingPathComponent("docs/guide/bake.md"), encoding: .utf8)
        let block = try #require(page.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let c = try ConfigurationFile.parse(block, source: "docs/guide/bake.md")
        #expect(c.selection.start == ISOTime.parse("2020-01-01") && c.selection.minMagnitude == 2.5)
        #expect(c.run.out?.path == "/srv/quakes" && c.export.thinning.magnitudeFloors.description == "0:6,3:5,5:4")
        #expect(c.export.recentDays == .days(30))
        #expect(c.run.maxRejects == 100)
    }

    /// Relative paths are the configuration file's, as `style` always was (cron does not run beside it); `~/` is home.
    @Test func relativePathsAreTakenFromTheFilesDirectory() throws {
        let c = try ConfigurationFile.parse("workspace: data\nexport:\n  out: ../srv/quakes", source: "/etc/quake-bake/bake.yaml")
        #expect(c.run.workspace == "/etc/quake-bake/data")
        #expect(c.run.out?.path == "/etc/srv/quakes")
        #expect(try ConfigurationFile.parse("workspace: /var/lib/q", source: "/etc/quake-bake/bake.yaml").run.workspace == "/var/lib/q")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(try ConfigurationFile.parse("workspace: ~/quakes", source: "/etc/quake-bake/bake.yaml").run.workspace == home + "/quakes")
    }

    @Test func emptyFileKeepsTheDefaults() throws {
        let c = try ConfigurationFile.parse("", source: "empty.yaml")
        #expect(c.fetch.service.host == "earthquake.usgs.gov")
        #expect(c.run.maxRejects == 100)
        #expect(c.export.recentDays == .auto)
    }

    @Test func theRecentLayerIsAutoOffOrANumberOfDays() throws {
        for (text, days) in [("auto", "auto"), ("off", "off"), ("false", "off"), ("14", "14")] {
            #expect(try ConfigurationFile.parse("export:\n  recent_days: \(text)", source: "bake.yaml").export.recentDays.description == days, "\(text)")
        }
    }

    /// Shapes a person may use on purpose work: merge keys, anchors and aliases, tags that say
    /// what the value is, a timestamp with a time, deep but bounded nesting under a known key.
    @Test func yamlThatMeansWhatItSaysIsRead() throws {
        let text = """
            defaults: &defaults { concurrency: 2, budget: 50 }
            fetch:
              <<: *defaults
              budget: 70
            selection:
              start: 2024-01-01 06:30:00
              min_magnitude: !!float 2.5
              catalog: !!str 123
            """
        do {
            _ = try ConfigurationFile.parse(text, source: "bake.yaml")
            Issue.record("an unknown top-level key was accepted")
        } catch let error as QuakeBakeError {
            #expect(error.description.contains("has unknown key defaults"), "\(error.description)")
        }
        let c = try ConfigurationFile.parse(text.replacingOccurrences(of: "defaults: &defaults", with: "export: &defaults")
            .replacingOccurrences(of: "{ concurrency: 2, budget: 50 }", with: "{ keep: 4 }").replacingOccurrences(of: "  <<: *defaults\n", with: ""),
            source: "bake.yaml")
        #expect(c.export.keep == 4 && c.fetch.requestBudget == 70)
        #expect(c.selection.start == ISOTime.parse("2024-01-01T06:30:00Z") && c.selection.minMagnitude == 2.5 && c.selection.catalog == "123")
        let merged = try ConfigurationFile.parse("fetch:\n  <<: [{ concurrency: 2, budget: 50 }, { budget: 9 }]\n  max_attempts: 3\n", source: "bake.yaml")
        #expect(merged.fetch.concurrency == 2 && merged.fetch.requestBudget == 50 && merged.fetch.maxAttempts == 3)
        // 500 levels of nesting under an unknown key: refused by name, not by the stack.
        let deep = "export:\n  deep: " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "\n"
        #expect(throws: QuakeBakeError.self) { try ConfigurationFile.parse(deep, source: "bake.yaml") }
    }

    /// The crash of issue 46 through the command line: `bake --config` with a key that is a list
    /// exits 64 with a message naming the file, not 132 (SIGILL).
    @Test func bakeWithAListAsAKeyExits64() async throws {
        let directory = TemporaryDirectory("config-key")
        let file = directory.path("bake.yaml")
        try "workspace: \(directory.path("ws").path)\n? [a, b]\n: c\n".write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await QuakeBakeCLI.run(["bake", "--config", file.path])
        #expect(outcome.status == 64 && outcome.standardError.contains("\(file.path) line 2: a key is a list, not a name"), "\(outcome.status) \(outcome.standardError)")
    }
}

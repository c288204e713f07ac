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
        """

    @Test func everyKeyLandsInItsOption() throws {
        let c = try ConfigurationFile.parse(Self.sample, source: "bake.yaml")
        #expect(c.workspace == "/var/lib/quake-bake")
        #expect(c.fetch.service.absoluteString == "http://127.0.0.1:8080/fdsnws/event/1/")
        #expect(c.maxRejects == 20)
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
        #expect(c.out?.path == "/srv/quakes")
        #expect(c.export.thinning.maxZoom == 6 && c.export.thinning.cellSize == 32 && c.export.thinning.perCell == 2)
        #expect(c.export.thinning.method == .grid)
        #expect(c.export.thinning.magnitudeFloors.description == "0:6,3:5")
        #expect(c.export.thinning.clusters == false)
        #expect(c.export.keep == 5)
        #expect(c.export.selection.since == ISOTime.parse("2024-03-01"))
        #expect(c.export.selection.minMagnitude == 3)
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
        ("fetch:\n  overlap: 1e300d", "overlap: \"1e300d\" must be 0.0…31622400.0 seconds"),
        ("fetch:\n  read_timeout: 2d", "read_timeout: \"2d\" must be 0.001…86400.0 seconds"),
        ("fetch:\n  concurrency: 64", "concurrency: 64 must be 1…16"),
        ("fetch:\n  max_body_mb: 17592186044416", "max_body_mb: 17592186044416 must be 1…4096"),
        ("{ unclosed", "not valid YAML"),
        ("fetch:\n  details: some", "details: \"some\" is not one of significant, all, none"),
        ("fetch:\n  details_per_run: -1", "details_per_run: -1 must be 0…100000"),
        ("export:\n  recent_days: soon", "recent_days: \"soon\" is not auto, off or a number of days"),
        ("export:\n  recent_days: 400", "--recent-days must be auto, off or 1…366, not 400"),
    ])
    func mistakesAreNamed(text: String, message: String) {
        do {
            _ = try ConfigurationFile.parse(text, source: "bake.yaml")
            Issue.record("\(text) was accepted")
        } catch let error as QuakeBakeError {
            #expect(error.exitStatus == .usage)
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
            #expect(error.exitStatus == .usage && error.description.contains("laughs.yaml holds more than 10,000 values once its YAML aliases are expanded"),
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
                #expect(error.exitStatus == .usage && error.description.contains(message), "\(error.description)")
            }
        }
    }

    @Test func theReadmeSampleIsValid() throws {
        let readme = try String(contentsOf: TestData.projectRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```yaml\n").dropFirst().first?.components(separatedBy: "```").first)
        let c = try ConfigurationFile.parse(block, source: "README.md")
        #expect(c.selection.start == ISOTime.parse("2020-01-01") && c.selection.minMagnitude == 2.5)
        #expect(c.out?.path == "/srv/quakes" && c.export.thinning.magnitudeFloors.description == "0:6,3:5,5:4")
        #expect(c.export.recentDays == .days(30))
        #expect(c.maxRejects == 100)
    }

    /// Relative paths are the configuration file's, as `style` always was (cron does not run beside it); `~/` is home.
    @Test func relativePathsAreTakenFromTheFilesDirectory() throws {
        let c = try ConfigurationFile.parse("workspace: data\nexport:\n  out: ../srv/quakes", source: "/etc/quake-bake/bake.yaml")
        #expect(c.workspace == "/etc/quake-bake/data")
        #expect(c.out?.path == "/etc/srv/quakes")
        #expect(try ConfigurationFile.parse("workspace: /var/lib/q", source: "/etc/quake-bake/bake.yaml").workspace == "/var/lib/q")
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(try ConfigurationFile.parse("workspace: ~/quakes", source: "/etc/quake-bake/bake.yaml").workspace == home + "/quakes")
    }

    @Test func emptyFileKeepsTheDefaults() throws {
        let c = try ConfigurationFile.parse("", source: "empty.yaml")
        #expect(c.fetch.service.host == "earthquake.usgs.gov")
        #expect(c.maxRejects == 100)
        #expect(c.export.recentDays == .auto)
    }

    @Test func theRecentLayerIsAutoOffOrANumberOfDays() throws {
        for (text, days) in [("auto", "auto"), ("off", "off"), ("false", "off"), ("14", "14")] {
            #expect(try ConfigurationFile.parse("export:\n  recent_days: \(text)", source: "bake.yaml").export.recentDays.description == days, "\(text)")
        }
    }
}

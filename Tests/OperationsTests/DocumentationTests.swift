import Foundation
import Testing
import TestSupport

/// Issue 49.5: the README is a newcomer's page, the reference is in docs/ and stays whole,
/// every relative link resolves, and ARCHITECTURE.md's module graph is Package.swift's.
@Suite struct DocumentationTests {
    static let root = TestData.projectRoot

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The commands, each with its guide page in docs/guide.
    static let commands = ["fetch", "index", "export", "publish", "bake", "status", "serve", "pull"]

    @Test func theReadmeIsShortAndKeepsTheTwoCommands() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 250, "README.md has \(lines) lines")
        let setUp = """
            ```sh
            Scripts/demo    # builds, then runs the pipeline end to end on the real USGS samples in data/, served by the local USGS stand-in
            Scripts/test    # runs every test
            ```
            """
        #expect(readme.contains(setUp), "README.md keeps the two set-up commands")
        for command in Self.commands {
            #expect(readme.contains("](docs/guide/\(command).md)"), "README.md links the guide page of \(command)")
        }
    }

    /// Every option a command's `--help` lists is explained on its guide page (`bake`'s on its
    /// own page or on the page of the stage it comes from; the options every command takes on
    /// docs/guide/README.md).
    @Test func everyOptionIsOnItsGuidePage() async throws {
        // `--max` is not named by a page that says only `--max-zoom`.
        func named(_ option: String) -> NSRegularExpression {
            try! NSRegularExpression(pattern: "(?<![a-z0-9-])" + NSRegularExpression.escapedPattern(for: option) + "(?![a-z0-9-])")
        }
        let shared = try Self.read("docs/guide/README.md")
        for command in Self.commands {
            let help = try await QuakeBakeCLI.run([command, "--help"]).checked().standardOutput
            let options = Set(help.split(separator: "\n").compactMap { line -> String? in
                line.firstMatch(of: /^\s+(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)/).map { String($0.1) }
            })
            #expect(options.count >= 4, "\(command) --help lists its options: \(help)")
            var pages = [try Self.read("docs/guide/\(command).md"), shared]
            if command == "bake" {
                pages += try ["fetch", "index", "export", "publish"].map { try Self.read("docs/guide/\($0).md") }
            }
            for option in options.sorted() where !pages.contains(where: { named(option).firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }) {
                Issue.record("\(option) of `quake-bake \(command)` is not explained in docs/guide/\(command).md")
            }
        }
    }

    /// Scripts/check-docs: every relative link and anchor of every Markdown file resolves, and
    /// ARCHITECTURE.md links each type it names to the file that declares it.
    @Test func everyLinkResolves() async throws {
        let run = try await ChildProcess.run("python3", [Self.root.appendingPathComponent("Scripts/check-docs").path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.contains(", 0 problems"), "\(run.standardError)")
    }

    /// Scripts/module-graph --check: the picture of which module imports which is made from Package.swift.
    @Test func theModuleGraphIsPackageSwifts() async throws {
        let run = try await ChildProcess.run("python3", [Self.root.appendingPathComponent("Scripts/module-graph").path, "--check"])
        #expect(run.status == 0, "\(run.standardError)")
        let architecture = try Self.read("docs/ARCHITECTURE.md")
        for module in ["QuakeCommon", "QuakeFetch", "QuakeStore", "QuakeBundles", "QuakeBundleKit", "quake-bake"] {
            #expect(architecture.contains("| \(module) | [Sources/"), "the module table lists \(module)")
        }
    }
}

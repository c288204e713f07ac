import ArgumentParser
import Foundation
import QuakeOperations

/// `quake-bake status`.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show where things stand in the workspace.",
        discussion: """
        Events stored (by type and status), their time and magnitude range, the high-water \
        mark, the archive and request statistics per endpoint, rejects, the current bundle \
        (version, age, size), recent runs and whether a run holds the workspace now.
        """)

    @Flag(help: "Print JSON instead of text.") var json = false

    @Option(help: ArgumentHelp("Where bundles are published, if not <workspace>/bundles.", valueName: "dir"))
    var out: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "status")
        try await Reporting.run(logger, command: "status") {
            let status = try WorkspaceStatus.read(common.resolvedWorkspace, out: out.map { URL(fileURLWithPath: $0) })
            print(json ? status.json : status.text)
        }
    }
}

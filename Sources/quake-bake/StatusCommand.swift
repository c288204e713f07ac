import ArgumentParser
import Foundation
import QuakeCommon
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

        A part that cannot be read (a damaged store, journal or run history) is named with \
        why, the rest shown all the same, and the exit status is 1.
        """)

    @Flag(help: "Print JSON instead of text.") var json = false

    @OptionGroup var out: ReadOutFlag

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let logger = output.logger(for: "status")
        try await Reporting.run(logger, command: "status") {
            let run = try RunOptions(common, out)
            let status = WorkspaceStatus.read(run.resolvedWorkspace, out: run.out)
            print(json ? status.json : status.text)
            // Shown all the same, but a script watching the exit code learns of it.
            if status.problems.count > 0 {
                throw QuakeBakeError("\(status.problems.count == 1 ? "1 part" : "\(status.problems.count) parts") of the workspace could not be read (above)")
            }
        }
    }
}

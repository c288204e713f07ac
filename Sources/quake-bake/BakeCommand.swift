import ArgumentParser
import Foundation
import QuakeCommon
import QuakeFetch
import QuakeOperations

/// `quake-bake bake`.
struct BakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bake",
        abstract: "Run fetch, index and export in one go, for cron.",
        discussion: """
        Fetches what changed (the first run fetches the whole selection), indexes it and, \
        when the store changed, exports a new bundle version. Settings come from --config \
        (YAML, see docs/guide/bake.md) and the flags, the flags winning.

        Exit codes: 0 done (also "nothing changed": no new bundle version), 75 temporary \
        (service unavailable after retries, or another run holds the workspace), 65 more \
        events rejected than --max-rejects (the good ones are stored and exported), \
        1 other failure.

        Example crontab line (every 15 minutes, quiet unless something is wrong):
          */15 * * * * quake-bake bake --config /etc/quake-bake.yaml --quiet
        """)

    @Option(help: ArgumentHelp("A YAML configuration file: service, selection, fetch, export (see docs/guide/bake.md).", valueName: "file"))
    var config: String?

    @OptionGroup var out: OutFlag
    @OptionGroup var maxRejects: MaxRejectsFlag

    @OptionGroup var selection: SelectionFlags
    @OptionGroup var service: FetchFlags
    @OptionGroup var bundle: BundleFlags
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let logger = output.logger(for: "bake")
        try await Reporting.run(logger, command: "bake") {
            var configuration = try config.map { try ConfigurationFile.read(URL(fileURLWithPath: $0)) } ?? BakeConfiguration()
            try selection.apply(to: &configuration.selection)
            try configuration.selection.validate()
            try service.apply(to: &configuration.fetch)
            try bundle.apply(to: &configuration.export)
            try configuration.export.validate()
            configuration.run = try runOptions(over: configuration.run)
            _ = try await Baker.bake(configuration, workspace: configuration.run.resolvedWorkspace, progress: output.progress, logger: logger)
        }
    }

    /// `base` (the configuration's) with the workspace, `--out` and `--max-rejects` given over it.
    func runOptions(over base: RunOptions = RunOptions()) throws -> RunOptions {
        try RunOptions(common, out, maxRejects, over: base)
    }
}

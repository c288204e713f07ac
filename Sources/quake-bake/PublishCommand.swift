import ArgumentParser
import Foundation
import QuakeCommon
import QuakeOperations
import QuakePublish

/// `quake-bake publish`.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish the current bundle to an S3-compatible object store.",
        discussion: """
        Uploads what the store lacks of the bundle (each file once, named by its content under \
        PREFIX/objects/, the app database gzip-compressed), checks every object, and then writes \
        PREFIX/current.json, the pointer apps and web clients read first: readers never see a \
        half-published version. A version may name an older app database and MBTiles plus the \
        deltas from them, so that a cron run's publish uploads little (docs/publishing.md). \
        Objects no kept version names are pruned after the pointer has moved.

        Credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN), else a \
        credentials file. They are never printed or logged.

        Exit codes: 0 done (also "nothing new"), 1 refused by the store (credentials, permissions, \
        no such bucket: the message names the store's error code and what to check), 64 bad \
        command line, 75 the store is unavailable (the next run resumes).
        """)

    @Option(help: ArgumentHelp("A YAML configuration whose publish: section (and workspace, export: out) to use; flags win.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The bundle version directory to publish (default: the current bundle under --out).", valueName: "dir"))
    var bundle: String?

    @OptionGroup var out: ReadOutFlag

    @OptionGroup var publish: PublishFlags
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let logger = output.logger(for: "publish")
        try await Reporting.run(logger, command: "publish") {
            let configuration = try config.map { try ConfigurationFile.read(URL(fileURLWithPath: $0)) }
            let options = try publish.options(over: configuration?.publish)
            let run = try RunOptions(common, out, over: configuration?.run ?? RunOptions())
            let workspace = run.resolvedWorkspace
            let lock = try WorkspaceLock(workspace: workspace, command: "quake-bake publish")
            defer { lock.release() }
            _ = try await PublishRun.run(bundle: bundle.map { URL(fileURLWithPath: $0) }, out: run.bundles(in: workspace), options: options,
                                         workspace: workspace, progress: output.progress, logger: logger)
        }
    }
}

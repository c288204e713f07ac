import ArgumentParser

/// `quake-bake status`.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show where things stand in the workspace.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "status")
        try await Reporting.run(logger) { throw Reporting.notBuiltYet("status", issue: 6) }
    }
}

import ArgumentParser

/// `quake-bake bake`.
struct BakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bake", abstract: "Run fetch, index and export in one go, for cron.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "bake")
        try await Reporting.run(logger) { throw Reporting.notBuiltYet("bake", issue: 6) }
    }
}

import ArgumentParser

/// `quake-bake export`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Thin events per zoom and write map bundles.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "export")
        try await Reporting.run(logger) { throw Reporting.notBuiltYet("export", issue: 5) }
    }
}

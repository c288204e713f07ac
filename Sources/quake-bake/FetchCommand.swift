import ArgumentParser

/// `quake-bake fetch`.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fetch", abstract: "Download events from an FDSN event service into the workspace archive.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "fetch")
        try await Reporting.run(logger) { throw Reporting.notBuiltYet("fetch", issue: 3) }
    }
}

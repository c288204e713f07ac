import ArgumentParser

/// `quake-bake index`.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "index", abstract: "Build or update the SpatiaLite store from the archive and ComCat files.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "index")
        try await Reporting.run(logger) { throw Reporting.notBuiltYet("index", issue: 4) }
    }
}

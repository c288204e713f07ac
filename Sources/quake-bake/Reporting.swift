import ArgumentParser
import Logging
import QuakeCommon

/// Runs a stage and turns its failure into a clear message and a meaningful exit code.
enum Reporting {
    static func run(_ logger: Logger, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ExitStatusProviding {
            logger.error("\(error)")
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.error("\(error)")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
    }

    /// The message and exit status of a stage that is not built yet.
    static func notBuiltYet(_ stage: String, issue: Int) -> QuakeBakeError {
        QuakeBakeError("`quake-bake \(stage)` is not built yet (issue \(issue)).", exitStatus: .failure)
    }
}

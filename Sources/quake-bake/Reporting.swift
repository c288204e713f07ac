import ArgumentParser
import Logging
import QuakeCommon

/// Runs a stage and turns its failure into a clear message and a meaningful exit code.
enum Reporting {
    /// Runs `command`'s body; SIGINT and SIGTERM end it with one line and exit 130/143 (see `Interruption`).
    static func run(_ logger: Logger, command: String, _ body: () async throws -> Void) async throws {
        Interruption.install(command: command)
        do {
            try await body()
        } catch let error as ExitStatusProviding {
            // The kind goes with the line (`kind=locked`, a JSON member), for whoever reads the logs of many runs.
            logger.error("\(error)", metadata: ["kind": "\(error.kind.rawValue)"])
            throw ExitCode(error.exitStatus.rawValue)
        } catch let error as ExitCode {
            throw error
        } catch {
            logger.error("\(ErrorText.message(error))")
            throw ExitCode(ExitStatus.failure.rawValue)
        }
    }
}

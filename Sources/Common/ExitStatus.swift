/// What a quake-bake process exit code means (sysexits.h values where one fits).
///
/// | code | meaning |
/// |---:|---|
/// | 0 | done (also "nothing changed") |
/// | 1 | other failure |
/// | 64 | bad command line (wrong flag, end before start, latitude 91, …) |
/// | 65 | bad data: a run rejected more events than its threshold |
/// | 75 | temporary: service unavailable after retries, or the workspace is locked; try again later |
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 64
    case dataError = 65
    case temporaryFailure = 75
}

/// An error that knows which exit status it should end the process with.
public protocol ExitStatusProviding: Error {
    var exitStatus: ExitStatus { get }
}

/// A failure with a message for people and an exit status for scripts.
public struct QuakeBakeError: ExitStatusProviding, CustomStringConvertible, Sendable {
    public let description: String
    public let exitStatus: ExitStatus

    public init(_ description: String, exitStatus: ExitStatus = .failure) {
        self.description = description
        self.exitStatus = exitStatus
    }
}

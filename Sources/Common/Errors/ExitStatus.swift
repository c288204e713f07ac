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

/// An error that knows which exit status it should end the process with, and what kind of
/// failure it is.
public protocol ExitStatusProviding: Error {
    var exitStatus: ExitStatus { get }
    /// What kind of failure it is; by default, the kind its exit status stands for.
    var kind: QuakeBakeError.Kind { get }
}

extension ExitStatusProviding {
    public var kind: QuakeBakeError.Kind { QuakeBakeError.Kind(exitStatus) }
}

/// A failure with a message for people, a kind for tests and log readers, and an exit status
/// for scripts.
public struct QuakeBakeError: ExitStatusProviding, CustomStringConvertible, Sendable {
    /// What kind of failure it is: what a test or a script tells apart without reading the words.
    /// Each kind has the exit status it ends a run with (`exitStatus`).
    public enum Kind: String, Sendable, CaseIterable {
        /// A command line or configuration that cannot be run: a wrong flag, a value out of its
        /// range, a file named that is not there (exit 64).
        case usage
        /// Data from outside that is not what it should be: a damaged catalog file, more
        /// rejects than allowed, a bundle or delta that is not one (exit 65).
        case badData
        /// Another run holds the workspace: try again when it has finished (exit 75).
        case locked
        /// A service or store that did not answer, or answered "later": the next run resumes (exit 75).
        case unavailable
        /// A store or a publication that said no: credentials, permissions, a publication this
        /// quake-bake does not accept. Trying again will not help until it changes (exit 1).
        case refused
        /// Something from outside past one of its limits (size, count, length) (exit 1).
        case overLimit
        /// Anything else: a file that cannot be written, a library that refused (exit 1).
        case failure

        /// The exit status a failure of this kind ends a run with.
        public var exitStatus: ExitStatus {
            switch self {
            case .usage: .usage
            case .badData: .dataError
            case .locked, .unavailable: .temporaryFailure
            case .refused, .overLimit, .failure: .failure
            }
        }

        /// The kind an exit status stands for, where a failure says only its status.
        public init(_ exitStatus: ExitStatus) {
            switch exitStatus {
            case .usage: self = .usage
            case .dataError: self = .badData
            case .temporaryFailure: self = .unavailable
            case .success, .failure: self = .failure
            }
        }
    }

    public let description: String
    public let kind: Kind
    /// The exit status of the error's kind.
    public var exitStatus: ExitStatus { kind.exitStatus }

    /// A failure of `kind`, said by `description`, ending the run with the kind's exit status.
    public init(_ kind: Kind, _ description: String) {
        self.description = description
        self.kind = kind
    }

    /// A failure said by `description` that ends the run with `exitStatus`; its kind is the one
    /// the status stands for.
    public init(_ description: String, exitStatus: ExitStatus = .failure) {
        self.description = description
        kind = Kind(exitStatus)
    }
}

/// Why ``BundleClient/update()`` changed nothing. The local bundle is as it was.
public struct BundleClientError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it is, for a caller deciding what to do next.
    public enum Kind: Sendable, Equatable {
        /// The publication is not one this library accepts (a malformed or hostile pointer, a file
        /// that fails its checks with no other way to the version, a format this library does not
        /// know): trying again will not help until the publication changes.
        case refused
        /// The source could not be reached or answered with a temporary failure: try again later
        /// (what was downloaded so far is kept, and the next update resumes it).
        case unreachable
        /// Another update of the same directory is running.
        case busy
        /// The local directory cannot be written (permissions, a full disk, something in the way).
        case local
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// What went wrong, naming the file or the URL (never a credential) and what to check.
    public let message: String

    /// A failure of `kind`, said by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

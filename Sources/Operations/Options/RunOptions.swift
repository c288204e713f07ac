import Foundation
import QuakeCommon

/// The options of a run that belong to no one stage: where it works (`--workspace`), where the
/// bundle versions are (`--out`) and how many refused items it puts up with (`--max-rejects`).
/// Each is declared once in `RunOption`; the initial values here are the defaults.
public struct RunOptions: DeclaredOptions, Equatable {
    /// The workspace given (a flag's, or a configuration's); `nil`: the environment's (`Workspace.resolve`).
    public var workspace: String?
    /// Where the bundle versions are; `nil`: `<workspace>/bundles`.
    public var out: URL?
    /// More items refused than this in one run ends it with exit status 65 (after storing, and
    /// exporting, the good ones).
    public var maxRejects = 100

    public init() {}

    /// The workspace: the one given, else the environment's.
    public var resolvedWorkspace: Workspace { Workspace.resolve(workspace) }

    /// Where the bundle versions are: `out`, else `<workspace>/bundles`.
    public func bundles(in workspace: Workspace) -> URL { out ?? workspace.bundlesDirectory }
}

import ArgumentParser
import QuakeCommon
import QuakeOperations

/// The option every stage that works in a workspace understands: the workspace
/// (`RunOption.workspace`). Those commands take `OutputOptions` beside it, not inside it:
/// ArgumentParser checks a group inside a group again for each check of the outer one (in
/// debug builds, on every run), which made a third of what a test's `quake-bake export` cost.
struct CommonOptions: DeclaredFlags {
    @Option(RunOption.workspace) var workspace: String?

    func apply(to run: inout RunOptions) throws { try RunOption.apply([(.workspace, workspace)], to: &run) }

    /// The workspace: `--workspace`, else the environment's.
    func resolvedWorkspace() throws -> Workspace { try RunOptions(self).resolvedWorkspace }
}

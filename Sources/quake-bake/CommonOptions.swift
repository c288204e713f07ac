import ArgumentParser
import Logging
import QuakeCommon
import QuakeOperations

/// Options every stage understands: the workspace (`RunOption.workspace`), and how to report.
struct CommonOptions: DeclaredFlags {
    @Option(RunOption.workspace) var workspace: String?

    @OptionGroup var output: OutputOptions

    func apply(to run: inout RunOptions) throws { try RunOption.apply([(.workspace, workspace)], to: &run) }

    /// The workspace: `--workspace`, else the environment's.
    func resolvedWorkspace() throws -> Workspace { try RunOptions(self).resolvedWorkspace }

    /// Progress display: a bar on a terminal, nothing under cron or --quiet.
    var progress: any ProgressSink { output.progress }

    /// Sets up logging and returns the logger for `stage`.
    func logger(for stage: String) -> Logger { output.logger(for: stage) }
}

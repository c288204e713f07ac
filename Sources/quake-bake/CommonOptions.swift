import ArgumentParser
import Logging
import QuakeCommon

/// Options every stage understands: the workspace, and how to report.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Workspace directory: raw pages, the store and bundles live here.",
        discussion: "Defaults to $QUAKE_BAKE_WORKSPACE, else $XDG_DATA_HOME/quake-bake, else ~/.local/share/quake-bake.",
        valueName: "dir"))
    var workspace: String?

    @OptionGroup var output: OutputOptions

    /// The resolved workspace.
    var resolvedWorkspace: Workspace { Workspace.resolve(workspace) }

    /// Progress display: a bar on a terminal, nothing under cron or --quiet.
    var progress: any ProgressSink { output.progress }

    /// Sets up logging and returns the logger for `stage`.
    func logger(for stage: String) -> Logger { output.logger(for: stage) }
}

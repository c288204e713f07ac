import ArgumentParser

/// The `quake-bake` command: parses arguments, calls one stage, reports.
@main
struct QuakeBake: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quake-bake",
        abstract: "Bake the USGS earthquake catalog into map bundles.",
        discussion: """
        Stages, each a subcommand, and one command that runs them all:
          fetch   download events from the FDSN event service into the archive
          index   normalise the archive (and ComCat files) into a SpatiaLite store
          export  thin events per zoom and write map bundles
          publish the current bundle to an S3-compatible object store
          bake    fetch, index and export (and publish) in one run, for cron
          status  where things stand
          serve   the current bundle over HTTP, for a browser at every zoom
          pull    keep a local copy of a published bundle current, as an app does

        Everything lives in one workspace directory: --workspace, else
        $QUAKE_BAKE_WORKSPACE, else ~/.local/share/quake-bake.

        Exit codes: 0 done (also "nothing changed"), 1 failure, 64 bad command
        line, 65 too many bad events, 75 temporary failure (service or store
        unavailable, or workspace locked: try again later).
        """,
        version: "quake-bake \(QuakeBake.version)",
        subcommands: [FetchCommand.self, IndexCommand.self, ExportCommand.self, PublishCommand.self, BakeCommand.self, StatusCommand.self,
                      ServeCommand.self, PullCommand.self]
    )

    /// The release, as `--version` prints it.
    static let version = "0.2.0"
}

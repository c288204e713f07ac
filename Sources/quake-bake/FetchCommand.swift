import ArgumentParser
import QuakeCommon
import QuakeFetch
import QuakeOperations

/// `quake-bake fetch`.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download events from an FDSN event service into the workspace archive.",
        discussion: """
        Counts first, plans time windows that each stay under the service's cap \
        (20,000 events at USGS), then queries each window and keeps every page \
        as received (gzip) under <workspace>/archive. Temporary failures are \
        retried politely; a killed fetch resumes where it stopped. Once a \
        selection has been fetched completely, later runs ask only for what \
        changed (updatedafter, deletions included). Then it fetches the details \
        (ShakeMap, PAGER, DYFI, moment tensor, cities, tectonic summary) of the \
        quakes that matter (--details, default significant: sig >= 600 or a PAGER \
        alert), biggest first, at most --details-per-run a run, again only when a \
        quake changes; docs/details.md says what a bundle gets of them.

        Example:
          quake-bake fetch --start 2024-01-01 --min-magnitude 2.5
          quake-bake fetch --service http://127.0.0.1:8080/fdsnws/event/1/ --bbox 170,-50,-170,-10
        """)

    @OptionGroup var selection: SelectionFlags
    @OptionGroup var service: FetchFlags
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let logger = output.logger(for: "fetch")
        try await Reporting.run(logger, command: "fetch") {
            let workspace = try common.resolvedWorkspace()
            let lock = try WorkspaceLock(workspace: workspace, command: "quake-bake fetch")
            defer { lock.release() }
            var options = FetchOptions()
            try service.apply(to: &options)
            let chosen = try selection.selection()
            _ = try await RecordedStage.run("fetch", workspace: workspace, facts: { RecordedStage.Facts(changed: $0.events > 0, eventsFetched: $0.events) }) {
                try await Fetcher.run(selection: chosen, options: options, workspace: workspace, progress: output.progress, logger: logger)
            }
        }
    }
}

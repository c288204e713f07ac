import ArgumentParser
import Foundation
import QuakeBundles
import QuakeCommon
import QuakeOperations

/// `quake-bake export`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Thin events per zoom and write map bundles.",
        discussion: """
        Writes a new bundle version under --out (default <workspace>/bundles) and makes it \
        current with one atomic switch of the `current` symlink: quakes.mbtiles, quakes.pmtiles, \
        geojson/z{z}.geojson.gz, quakes.sqlite, timeline.json, style.json (with the basemap it \
        draws, land.geojson and plate-boundaries.geojson, unless --basemap none), manifest.json, \
        preview.html, and deltas/ from the older versions kept (see docs/bundle.md and \
        docs/deltas.md). When nothing changed since the current bundle, no version is made.

        Below --max-zoom each zoom draws the biggest quake of every 32-pixel neighbourhood and \
        enough others that every quake is within 12 pixels of a drawn one (--thinning spacing; \
        docs/thinning.md); the rest are summarised per grid cell.
        """)

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    @OptionGroup var out: OutFlag

    @OptionGroup var selection: ExportSelectionFlags
    @OptionGroup var bundle: BundleFlags
    @Flag(help: "Encode every tile and write every file whole, reusing nothing from the current bundle (the same content; quakes.sqlite and quakes.mbtiles come out compact).") var full = false

    /// Bad options are said in ArgumentParser's form (`Error: …` and the usage, exit 64).
    func validate() throws {
        do {
            _ = try exportOptions()
        } catch let error as QuakeBakeError {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let logger = output.logger(for: "export")
        try await Reporting.run(logger, command: "export") {
            let options = try exportOptions()
            let run = try RunOptions(common, out)
            let workspace = run.resolvedWorkspace
            let outDirectory = run.bundles(in: workspace)
            // A mistake of the command line first, then nothing to export from: said before
            // anything is created (a lock, a directory).
            try OutputDirectory.check(outDirectory)
            guard FileManager.default.fileExists(atPath: workspace.storePath.path) else {
                throw QuakeBakeError("no store at \(workspace.storePath.path): run `quake-bake index` first")
            }
            let lock = try WorkspaceLock(workspace: workspace, command: "quake-bake export")
            defer { lock.release() }
            _ = try await RecordedStage.run("export", workspace: workspace, facts: {
                RecordedStage.Facts(changed: $0.changed, bundleVersion: $0.bundleVersion)
            }) {
                try Exporter.export(store: workspace.storePath, out: outDirectory, options: options, progress: output.progress, logger: logger)
            }
        }
    }

    private func exportOptions() throws -> ExportOptions {
        var options = ExportOptions()
        try selection.apply(to: &options)
        try bundle.apply(to: &options)
        options.reuseTiles = !full
        try options.validate()
        return options
    }
}

import ArgumentParser
import Foundation
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// `quake-bake export`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Thin events per zoom and write map bundles.",
        discussion: """
        Writes a new bundle version under --out (default <workspace>/bundles) and makes it
        current with one atomic switch of the `current` symlink: quakes.mbtiles, quakes.pmtiles,
        geojson/z{z}.geojson.gz, quakes.sqlite, timeline.json, manifest.json, preview.html.
        When nothing changed since the current bundle, no version is made.
        """)

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Output directory for bundle versions (default: <workspace>/bundles).", valueName: "dir"))
    var out: String?

    @Option(help: "Lowest zoom.") var minZoom = 0
    @Option(help: "Highest zoom (up to 16); every selected event is shown there.") var maxZoom = 10
    @Option(help: ArgumentHelp("Grid cell size in pixels of a 256-pixel tile: a power of two from 4 to 256.", valueName: "px"))
    var cellSize = 64
    @Option(help: "Events kept per grid cell below the highest zoom.") var perCell = 1
    @Flag(help: "Do not thin with the magnitude grid (floors and stride still apply).") var noGrid = false
    @Option(help: ArgumentHelp("Minimum magnitude from a zoom on, e.g. 0:6,3:5,5:4,7:3.", valueName: "z:M,..."))
    var magnitudeFloor: String?
    @Option(help: "Below the highest zoom keep every Nth candidate in time order, per zoom.") var stride = 1
    @Flag(inversion: .prefixedNo, help: "Summarise the events a zoom hides as one cluster per grid cell.") var clusters = true

    @Option(help: ArgumentHelp("Only events at or after this time (ISO 8601, UTC unless a zone is given).", valueName: "time"))
    var since: String?
    @Option(help: ArgumentHelp("Only events before this time.", valueName: "time")) var until: String?
    @Option(parsing: .unconditional, help: "Only events with at least this magnitude.") var minMagnitude: Double?
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Only events inside west,south,east,north (west > east crosses the antimeridian).", valueName: "w,s,e,n"))
    var bbox: String?
    @Option(help: ArgumentHelp("Only events of this type (repeat or comma-separate; default: all).", valueName: "type"))
    var eventType: [String] = []

    @Option(help: ArgumentHelp("Feature attributes, comma-separated (default: \(EventAttribute.defaults.map(\.rawValue).joined(separator: ","))).",
                               valueName: "list"))
    var attributes: String?
    @Option(help: "Bundle versions to keep, the new one included.") var keep = 3
    @Option(help: "Write GeoJSON (and a preview layer) for zooms with at most this many features.") var geojsonMaxFeatures = 50_000
    @Option(help: "Tileset name in the MBTiles and PMTiles metadata.") var name = "quakes"
    @Flag(help: "Encode every tile, reusing nothing from the current bundle (the result is the same).") var full = false
    @Option(help: .hidden) var maxTileBytes = 500_000
    @Option(help: .hidden) var maxTileFeatures = 200_000

    func run() async throws {
        let logger = common.logger(for: "export")
        try await Reporting.run(logger) {
            let options = try exportOptions()
            let workspace = common.resolvedWorkspace
            let lock = try WorkspaceLock(workspace: workspace, command: "export")
            defer { lock.release() }
            let outDirectory = out.map { URL(fileURLWithPath: $0) } ?? workspace.bundlesDirectory
            _ = try Exporter.export(store: workspace.storePath, out: outDirectory, options: options,
                                    progress: common.progress, logger: logger)
        }
    }

    private func exportOptions() throws -> ExportOptions {
        var options = ExportOptions()
        options.thinning.minZoom = minZoom
        options.thinning.maxZoom = maxZoom
        options.thinning.cellSize = cellSize
        options.thinning.perCell = perCell
        options.thinning.grid = !noGrid
        if let magnitudeFloor { options.thinning.magnitudeFloors = try MagnitudeFloors(parsing: magnitudeFloor) }
        options.thinning.stride = stride
        options.thinning.clusters = clusters
        options.thinning.maxTileBytes = maxTileBytes
        options.thinning.maxTileFeatures = maxTileFeatures
        options.selection.since = try since.map { try Self.time($0, "--since") }
        options.selection.until = try until.map { try Self.time($0, "--until") }
        options.selection.minMagnitude = minMagnitude
        if let bbox { options.selection.bbox = try BoundingBox(parsing: bbox) }
        options.selection.eventTypes = eventType.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
        if let attributes { options.attributes = try EventAttribute.parseList(attributes) }
        options.keep = keep
        options.geoJSONMaxFeatures = geojsonMaxFeatures
        options.name = name
        options.reuseTiles = !full
        try options.validate()
        return options
    }

    private static func time(_ text: String, _ flag: String) throws -> Int64 {
        guard let ms = ISOTime.parse(text) else {
            throw QuakeBakeError("\(flag): `\(text)` is not an ISO 8601 time (e.g. 2024-01-31 or 2024-01-31T12:00:00Z)", exitStatus: .usage)
        }
        return ms
    }
}

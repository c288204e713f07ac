import Foundation
import ArgumentParser
import QuakeBundles
import QuakeCommon
import QuakeTiles

/// How to thin and what to write, shared by `export` and `bake`.
/// Only the flags given change anything, so `bake --config` can supply the rest.
struct BundleFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Lowest zoom (default 0).", valueName: "z")) var minZoom: Int?
    @Option(help: ArgumentHelp("Highest zoom, up to 16 (default 10); every selected event is shown there.", valueName: "z"))
    var maxZoom: Int?
    @Option(help: ArgumentHelp("Grid cell size in pixels of a 256-pixel tile: a power of two from 4 to 256 (default 64).", valueName: "px"))
    var cellSize: Int?
    @Option(help: ArgumentHelp("Events kept per grid cell below the highest zoom by --thinning grid (default 1).", valueName: "n")) var perCell: Int?
    @Option(help: ArgumentHelp("How zooms below the highest choose their quakes: spacing (biggest first, every place with quakes shown; the default), grid (the --per-cell most important per grid cell) or none (floors and stride alone).",
                               valueName: "method"))
    var thinning: ThinningOptions.Method?
    @Option(help: ArgumentHelp("Minimum magnitude from a zoom on, e.g. 0:6,3:5,5:4,7:3.", valueName: "z:M,..."))
    var magnitudeFloor: String?
    @Option(help: ArgumentHelp("Below the highest zoom keep every Nth candidate in time order, per zoom (default 1).", valueName: "n"))
    var stride: Int?
    @Flag(inversion: .prefixedNo, help: "Summarise the events a zoom hides as one cluster per grid cell (default on).") var clusters: Bool?
    @Option(help: ArgumentHelp("Feature attributes, comma-separated (default: \(EventAttribute.defaults.map(\.rawValue).joined(separator: ","))).",
                               valueName: "list"))
    var attributes: String?
    @Option(help: ArgumentHelp("Bundle versions to keep, the new one included (default 3).", valueName: "n")) var keep: Int?
    @Flag(inversion: .prefixedNo, help: "Write deltas from the older versions kept, for apps that update by delta (default on).")
    var deltas: Bool?
    @Option(help: ArgumentHelp("Keep the quakes of the last N to 2N days out of the tiles, in recent.geojson (drawn by style.json over the tiles): app updates by delta then stay small, the tiles changing once every N days. auto (the default): \(RecentDays.autoDays) days when they hold at most 1/\(RecentLayer.autoShare) of the selection and \(Format.count(RecentLayer.autoMaximumEvents)) quakes; off: every quake in the tiles.",
                               valueName: "N|auto|off"))
    var recentDays: RecentDays?
    @Option(help: ArgumentHelp("Write GeoJSON (and a preview layer) for zooms with at most this many features (default 50,000).",
                               valueName: "n"))
    var geojsonMaxFeatures: Int?
    @Option(help: ArgumentHelp("Tileset name in the MBTiles and PMTiles metadata (default quakes).", valueName: "name")) var name: String?
    @Option(help: ArgumentHelp("Your own MapLibre style (JSON, spec v8, with a `quakes` source) for the bundle's style.json; its source is pointed at the bundle's tiles.",
                               valueName: "file"))
    var style: String?
    @Option(help: ArgumentHelp("What style.json draws under the quakes: natural-earth (land and plate boundaries, from files in the bundle; the default) or none (for apps that bring their own basemap).",
                               valueName: "name"))
    var basemap: Basemap?
    @Option(help: .hidden) var maxTileBytes: Int?
    @Option(help: .hidden) var maxTileFeatures: Int?

    /// Sets the parts of `options` these flags give.
    func apply(to options: inout ExportOptions) throws {
        if let minZoom { options.thinning.minZoom = minZoom }
        if let maxZoom { options.thinning.maxZoom = maxZoom }
        if let cellSize { options.thinning.cellSize = cellSize }
        if let perCell { options.thinning.perCell = perCell }
        if let thinning { options.thinning.method = thinning }
        if let magnitudeFloor { options.thinning.magnitudeFloors = try MagnitudeFloors(parsing: magnitudeFloor) }
        if let stride { options.thinning.stride = stride }
        if let clusters { options.thinning.clusters = clusters }
        if let maxTileBytes { options.thinning.maxTileBytes = maxTileBytes }
        if let maxTileFeatures { options.thinning.maxTileFeatures = maxTileFeatures }
        if let attributes { options.attributes = try EventAttribute.parseList(attributes) }
        if let keep { options.keep = keep }
        if let deltas { options.deltas = deltas }
        if let recentDays { options.recentDays = recentDays }
        if let geojsonMaxFeatures { options.geoJSONMaxFeatures = geojsonMaxFeatures }
        if let name { options.name = name }
        if let style { options.style = try StyleTemplate(contentsOf: URL(fileURLWithPath: style)) }
        if let basemap { options.basemap = basemap }
    }
}

extension ThinningOptions.Method: ExpressibleByArgument {}
extension Basemap: ExpressibleByArgument {}
extension RecentDays: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

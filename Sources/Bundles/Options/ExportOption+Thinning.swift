import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// The options of how events are thinned per zoom (`ThinningOptions`), in the manifest under
/// `options.thinning`.
extension ExportOption {
    public static let minZoom = ExportOption(
        flag: "min-zoom", key: "min_zoom", manifest: (.thinning, "min_zoom"), at: \.thinning.minZoom, valueName: "z",
        summary: "Lowest zoom",
        parse: OptionText.wholeNumber, check: zoom, text: String.init, json: { .int($0) })

    public static let maxZoom = ExportOption(
        flag: "max-zoom", key: "max_zoom", manifest: (.thinning, "max_zoom"), at: \.thinning.maxZoom, valueName: "z",
        summary: "Highest zoom, up to \(ThinningOptions.zoomLimit); every selected event is shown there",
        parse: OptionText.wholeNumber, check: zoom, text: String.init, json: { .int($0) })

    public static let thinning = ExportOption(
        flag: "thinning", key: "thinning", manifest: (.thinning, "method"), at: \.thinning.method, valueName: "method",
        summary: "How zooms below the highest choose their quakes: spacing (biggest first, every place with quakes shown; the default), "
            + "grid (the --per-cell most important per grid cell) or none (floors and stride alone).",
        choices: ThinningOptions.Method.allCases.map(\.rawValue), parse: OptionText.choice, text: nil, json: { .string($0.rawValue) })

    public static let cellSize = ExportOption(
        flag: "cell-size", key: "cell_size", manifest: (.thinning, "cell_size"), at: \.thinning.cellSize, valueName: "px",
        summary: "Grid cell size in pixels of a 256-pixel tile: a power of two from 4 to 256",
        parse: OptionText.wholeNumber,
        check: { (4...256).contains($0) && $0.nonzeroBitCount == 1 ? nil : "must be a power of two from 4 to 256 pixels, not \($0)" },
        text: String.init, json: { .int($0) })

    public static let perCell = ExportOption(
        flag: "per-cell", key: "per_cell", manifest: (.thinning, "per_cell"), at: \.thinning.perCell, valueName: "n",
        summary: "Events kept per grid cell below the highest zoom by --thinning grid",
        parse: OptionText.wholeNumber, check: { OptionText.atLeast(1, $0) }, text: String.init, json: { .int($0) })

    public static let magnitudeFloor = ExportOption(
        flag: "magnitude-floor", key: "magnitude_floor", manifest: (.thinning, "magnitude_floor"), at: \.thinning.magnitudeFloors,
        valueName: "z:M,...", summary: "Minimum magnitude from a zoom on, e.g. 0:6,3:5,5:4,7:3.",
        parse: { try MagnitudeFloors(parsing: $0) }, text: nil, json: { .string($0.description) })

    public static let stride = ExportOption(
        flag: "stride", key: "stride", manifest: (.thinning, "stride"), at: \.thinning.stride, valueName: "n",
        summary: "Below the highest zoom keep every Nth candidate in time order, per zoom",
        parse: OptionText.wholeNumber, check: { OptionText.atLeast(1, $0) }, text: String.init, json: { .int($0) })

    public static let clusters = ExportOption(
        flag: "clusters", key: "clusters", manifest: (.thinning, "clusters"), at: \.thinning.clusters, form: .onOff, valueName: "",
        summary: "Summarise the events a zoom hides as one cluster per grid cell",
        parse: OptionText.onOff, text: { $0 ? "on" : "off" }, json: { .bool($0) })

    /// For tests: the largest gzip-compressed tile allowed, in bytes.
    public static let maxTileBytes = ExportOption(
        flag: "max-tile-bytes", key: nil, manifest: (.thinning, "max_tile_bytes"), at: \.thinning.maxTileBytes, valueName: "bytes",
        summary: "The largest gzip-compressed tile allowed",
        parse: OptionText.wholeNumber, check: { $0 >= 1024 ? nil : "must be at least 1024 bytes, not \($0)" }, text: String.init, json: { .int($0) })

    /// For tests: the most features allowed in one tile (more than the grid cells of a tile: `ThinningOptions.validate`).
    public static let maxTileFeatures = ExportOption(
        flag: "max-tile-features", key: nil, manifest: (.thinning, "max_tile_features"), at: \.thinning.maxTileFeatures, valueName: "n",
        summary: "The most features in one tile",
        parse: OptionText.wholeNumber, text: String.init, json: { .int($0) })

    private static func zoom(_ zoom: Int) -> String? {
        (0...ThinningOptions.zoomLimit).contains(zoom) ? nil : "must be 0…\(ThinningOptions.zoomLimit), not \(zoom)"
    }
}

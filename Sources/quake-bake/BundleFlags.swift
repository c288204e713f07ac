import ArgumentParser
import QuakeBundles

/// How to thin and what to write, shared by `export` and `bake`: a flag for each `ExportOption`
/// but the selection's (`ExportSelectionFlags`), named and explained by its declaration.
/// Only the flags given change anything, so `bake --config` can supply the rest.
struct BundleFlags: DeclaredFlags {
    @Option(.minZoom) var minZoom: String?
    @Option(.maxZoom) var maxZoom: String?
    @Option(.cellSize) var cellSize: String?
    @Option(.perCell) var perCell: String?
    @Option(.thinning) var thinning: String?
    @Option(.magnitudeFloor) var magnitudeFloor: String?
    @Option(.stride) var stride: String?
    @Flag(.clusters) var clusters: Bool?
    @Option(.attributes) var attributes: String?
    @Option(.keep) var keep: String?
    @Flag(.deltas) var deltas: Bool?
    @Option(.recentDays) var recentDays: String?
    @Option(.geojsonMaxFeatures) var geojsonMaxFeatures: String?
    @Option(.name) var name: String?
    @Option(.style) var style: String?
    @Option(.basemap) var basemap: String?
    @Option(.maxTileBytes) var maxTileBytes: String?
    @Option(.maxTileFeatures) var maxTileFeatures: String?

    func apply(to options: inout ExportOptions) throws {
        try ExportOption.apply([
            (.minZoom, minZoom), (.maxZoom, maxZoom), (.cellSize, cellSize), (.perCell, perCell), (.thinning, thinning),
            (.magnitudeFloor, magnitudeFloor), (.stride, stride), (.clusters, clusters.map { String($0) }), (.attributes, attributes),
            (.keep, keep), (.deltas, deltas.map { String($0) }), (.recentDays, recentDays), (.geojsonMaxFeatures, geojsonMaxFeatures),
            (.name, name), (.style, style), (.basemap, basemap), (.maxTileBytes, maxTileBytes), (.maxTileFeatures, maxTileFeatures),
        ], to: &options)
    }
}

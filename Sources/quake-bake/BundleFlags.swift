import ArgumentParser
import QuakeBundles

/// How to thin and what to write, shared by `export` and `bake`: a flag for each `ExportOption`
/// but the selection's (`ExportSelectionFlags`), named and explained by its declaration.
/// Only the flags given change anything, so `bake --config` can supply the rest.
struct BundleFlags: ExportOptionFlags {
    @Option(name: .option(.minZoom), help: .option(.minZoom), completion: .option(.minZoom)) var minZoom: String?
    @Option(name: .option(.maxZoom), help: .option(.maxZoom), completion: .option(.maxZoom)) var maxZoom: String?
    @Option(name: .option(.cellSize), help: .option(.cellSize), completion: .option(.cellSize)) var cellSize: String?
    @Option(name: .option(.perCell), help: .option(.perCell), completion: .option(.perCell)) var perCell: String?
    @Option(name: .option(.thinning), help: .option(.thinning), completion: .option(.thinning)) var thinning: String?
    @Option(name: .option(.magnitudeFloor), help: .option(.magnitudeFloor), completion: .option(.magnitudeFloor)) var magnitudeFloor: String?
    @Option(name: .option(.stride), help: .option(.stride), completion: .option(.stride)) var stride: String?
    @Flag(name: .option(.clusters), inversion: .prefixedNo, help: .option(.clusters)) var clusters: Bool?
    @Option(name: .option(.attributes), help: .option(.attributes), completion: .option(.attributes)) var attributes: String?
    @Option(name: .option(.keep), help: .option(.keep), completion: .option(.keep)) var keep: String?
    @Flag(name: .option(.deltas), inversion: .prefixedNo, help: .option(.deltas)) var deltas: Bool?
    @Option(name: .option(.recentDays), help: .option(.recentDays), completion: .option(.recentDays)) var recentDays: String?
    @Option(name: .option(.geojsonMaxFeatures), help: .option(.geojsonMaxFeatures), completion: .option(.geojsonMaxFeatures)) var geojsonMaxFeatures: String?
    @Option(name: .option(.name), help: .option(.name), completion: .option(.name)) var name: String?
    @Option(name: .option(.style), help: .option(.style), completion: .option(.style)) var style: String?
    @Option(name: .option(.basemap), help: .option(.basemap), completion: .option(.basemap)) var basemap: String?
    @Option(name: .option(.maxTileBytes), help: .option(.maxTileBytes), completion: .option(.maxTileBytes)) var maxTileBytes: String?
    @Option(name: .option(.maxTileFeatures), help: .option(.maxTileFeatures), completion: .option(.maxTileFeatures)) var maxTileFeatures: String?

    /// Sets the options these flags give; throws a usage error naming the flag that is wrong.
    func apply(to options: inout ExportOptions) throws {
        try ExportOption.apply([
            (.minZoom, minZoom), (.maxZoom, maxZoom), (.cellSize, cellSize), (.perCell, perCell), (.thinning, thinning),
            (.magnitudeFloor, magnitudeFloor), (.stride, stride), (.clusters, clusters.map { String($0) }), (.attributes, attributes),
            (.keep, keep), (.deltas, deltas.map { String($0) }), (.recentDays, recentDays), (.geojsonMaxFeatures, geojsonMaxFeatures),
            (.name, name), (.style, style), (.basemap, basemap), (.maxTileBytes, maxTileBytes), (.maxTileFeatures, maxTileFeatures),
        ], to: &options)
    }
}

import QuakeCatalog
import QuakeCommon

extension ExportOption {
    /// Every option of an export, in the order the manifest's `options` lists them.
    public static let all: [ExportOption] = [
        since, until, minMagnitude, bbox, eventTypes,
        minZoom, maxZoom, thinning, cellSize, perCell, magnitudeFloor, stride, clusters, maxTileBytes, maxTileFeatures,
        attributes, geojsonMaxFeatures, name, style, basemap, recentDays,
        keep, deltas,
    ]

    /// The options of `all` a configuration's `export:` section takes.
    public static var configurable: [ExportOption] { all.filter { $0.key != nil } }

    /// Sets each option given a text (`nil`: not given) in `options`; throws a usage error
    /// naming the flag of the first that is wrong.
    public static func apply(_ given: [(ExportOption, String?)], to options: inout ExportOptions) throws {
        try OptionDeclaration.apply(given.map { ($0.0.declaration, $0.1) }, to: &options)
    }

    /// The manifest's `options`: what shapes a bundle's content, grouped as `ManifestGroup` says,
    /// each group where its first option is.
    static func manifestJSON(of options: ExportOptions) -> JSON {
        var members: [(String, JSON)] = []
        for option in all {
            guard let (group, key) = option.manifest, let value = option.manifestValue?(options) else { continue }
            if group == .top {
                members.append((key, value))
            } else if let index = members.firstIndex(where: { $0.0 == group.rawValue }), case .object(let grouped) = members[index].1 {
                members[index].1 = .object(grouped + [(key, value)])
            } else {
                members.append((group.rawValue, .object([(key, value)])))
            }
        }
        return .object(members)
    }
}

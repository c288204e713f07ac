import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// The options of what a bundle's files hold and how versions are kept, in the manifest at the
/// top of `options` (`keep` and `deltas` change how a bundle is made, not what it holds: not there).
extension ExportOption {
    public static let attributes = ExportOption(
        flag: "attributes", key: "attributes", manifest: (.top, "attributes"), at: \.attributes, form: .list, valueName: "list",
        summary: "Feature attributes, comma-separated",
        parse: { try EventAttribute.parseList($0) }, text: { $0.map(\.rawValue).joined(separator: ",") }, json: { .array($0.map { .string($0.rawValue) }) })

    public static let geojsonMaxFeatures = ExportOption(
        flag: "geojson-max-features", key: "geojson_max_features", manifest: (.top, "geojson_max_features"), at: \.geoJSONMaxFeatures,
        valueName: "n", summary: "Write GeoJSON (and a preview layer) for zooms with at most this many features",
        parse: OptionText.wholeNumber, check: { $0 >= 0 ? nil : "must not be negative" }, text: Format.count, json: { .int($0) })

    public static let name = ExportOption(
        flag: "name", key: "name", manifest: (.top, "name"), at: \.name, valueName: "name",
        summary: "Tileset name in the MBTiles and PMTiles metadata",
        parse: { $0 }, check: { $0.isEmpty ? "must not be empty" : nil }, text: { $0 }, json: JSON.string)

    public static let style = ExportOption(
        flag: "style", key: "style", manifest: (.top, "style"), at: \.style, form: .file, valueName: "file",
        summary: "Your own MapLibre style (JSON, spec v8, with a `quakes` source) for the bundle's style.json; its source is pointed at the bundle's tiles.",
        parse: { try StyleTemplate(contentsOf: URL(fileURLWithPath: $0)) }, text: nil,
        json: { $0.map { .string("sha256:" + $0.digest) } ?? .null })

    public static let basemap = ExportOption(
        flag: "basemap", key: "basemap", manifest: (.top, "basemap"), at: \.basemap, valueName: "name",
        summary: "What style.json draws under the quakes: natural-earth (land and plate boundaries, from files in the bundle; the default) "
            + "or none (for apps that bring their own basemap).",
        choices: Basemap.allCases.map(\.rawValue), parse: OptionText.choice, text: nil, json: { .string($0.rawValue) })

    public static let recentDays = ExportOption(
        flag: "recent-days", key: "recent_days", manifest: (.top, "recent_days"), at: \.recentDays, valueName: "N|auto|off",
        summary: "Keep the quakes of the last N to 2N days out of the tiles, in recent.geojson (drawn by style.json over the tiles): "
            + "app updates by delta then stay small, the tiles changing once every N days. auto (the default): \(RecentDays.autoDays) days "
            + "when they hold at most 1/\(RecentLayer.autoShare) of the selection and \(Format.count(RecentLayer.autoMaximumEvents)) quakes; "
            + "off: every quake in the tiles.",
        parse: RecentDays.parse, check: { $0.problem }, text: nil, json: { $0.json })

    public static let keep = ExportOption(
        flag: "keep", key: "keep", manifest: nil, at: \.keep, valueName: "n",
        summary: "Bundle versions to keep, the new one included",
        parse: OptionText.wholeNumber, check: { OptionText.atLeast(1, $0) }, text: String.init)

    public static let deltas = ExportOption(
        flag: "deltas", key: "deltas", manifest: nil, at: \.deltas, form: .onOff, valueName: "",
        summary: "Write deltas from the older versions kept, for apps that update by delta",
        parse: OptionText.onOff, text: { $0 ? "on" : "off" })
}

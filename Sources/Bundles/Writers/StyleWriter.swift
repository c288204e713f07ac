import QuakeBundleFormat
import QuakeCatalog
import Foundation

/// Writes `style.json`: a MapLibre style (style spec v8) for the bundle's own tiles, so that a
/// map app, MapLibre GL JS or MapLibre Native draws the bundle offline, as the preview does.
///
/// The vector source is `pmtiles://quakes.pmtiles`, relative to the bundle: an app that
/// keeps the bundle elsewhere, or reads `quakes.mbtiles`, puts its own URL in
/// `sources.quakes.url` (`mbtiles:///abs/quakes.mbtiles` in MapLibre Native). No glyphs,
/// sprites or other sources: nothing is fetched from elsewhere. Quakes are circles coloured
/// by `MagnitudeLegend` and sized by magnitude, growing with the zoom; summaries of hidden
/// quakes (`clusters`) are soft grey glows (`circle-blur` 1) sized by their count, drawn under
/// the quakes: nothing crisp that could be read as a quake, and nothing over one (see
/// docs/thinning.md for why a glow and not a counted disc). With a recent layer
/// (`--recent-days`), a GeoJSON source `recent` (`recent.geojson`, beside the style) is drawn
/// over them alike, each quake ringed in white: the newest quakes stand out. Under them, the
/// layers of `MapLayers`: the basemap (land and plate boundaries from GeoJSON files beside the
/// style, unless `--basemap none`) and the heat of the low zooms.
enum StyleWriter {
    /// The style's text (keys in a fixed order, so the bytes are deterministic).
    static func json(name: String, recent: Bool = false, basemap: Basemap = .naturalEarth) -> String {
        let bands = MagnitudeLegend.bands
        // Unknown magnitudes (-100 here) in their own colour, then one colour per class.
        var colour: [JSON] = [.string("step"), .array([.string("coalesce"), .array([.string("get"), .string("mag")]), .int(-100)]),
                              .string(MagnitudeLegend.unknownColour), .int(-99)]
        for (i, band) in bands.enumerated() {
            if i > 0 { colour.append(.number(band.from)) }
            colour.append(.string(band.colour))
        }
        let magnitude: JSON = .array([.string("coalesce"), .array([.string("get"), .string("mag")]), .int(0)])
        func size(_ small: Double, _ large: Double) -> JSON {
            .array([.string("interpolate"), .array([.string("exponential"), .number(1.5)]), magnitude,
                    .int(0), .number(small), .int(9), .number(large)])
        }
        let radius: JSON = .array([.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")]),
                                   .int(0), size(1.5, 9), .int(6), size(2.5, 16), .int(12), size(4, 28)])
        let clusterRadius: JSON = .array([.string("interpolate"), .array([.string("linear")]),
                                          .array([.string("ln"), .array([.string("coalesce"), .array([.string("get"), .string("point_count")]), .int(1)])]),
                                          .int(0), .int(8), .int(12), .int(36)])
        let legend: JSON = .array(bands.map { .object([("from", .number($0.from)), ("colour", .string($0.colour)), ("label", .string($0.label))]) })
        func quakes(id: String, source: String, sourceLayer: String?, stroke: String, strokeWidth: Double) -> JSON {
            .object([("id", .string(id)), ("type", .string("circle")), ("source", .string(source))]
                    + (sourceLayer.map { [("source-layer", JSON.string($0))] } ?? [])
                    + [("layout", .object([("circle-sort-key", magnitude)])),
                       ("paint", .object([("circle-color", .array(colour)), ("circle-opacity", .number(0.85)),
                                          ("circle-radius", radius), ("circle-stroke-color", .string(stroke)),
                                          ("circle-stroke-width", .number(strokeWidth))]))])
        }
        let attribution: (String, JSON) = ("attribution", .string("Earthquakes: U.S. Geological Survey, ComCat"))
        var sources: [(String, JSON)] = [("quakes", .object([("type", .string("vector")), ("url", .string("pmtiles://" + BundleFileName.pmtiles)), attribution]))]
        if basemap != .none { sources += MapLayers.basemapSources }
        var layers: [JSON] = [
            .object([("id", .string("background")), ("type", .string("background")),
                     ("paint", .object([("background-color", .string(MagnitudeLegend.background))]))]),
        ]
        if basemap != .none { layers += MapLayers.basemap }
        layers += [
            MapLayers.heat,
            .object([("id", .string("clusters")), ("type", .string("circle")), ("source", .string("quakes")),
                     ("source-layer", .string("clusters")),
                     ("paint", .object([("circle-color", .string(MagnitudeLegend.clusterColour)), ("circle-opacity", .number(0.55)),
                                        ("circle-blur", .int(1)), ("circle-radius", clusterRadius)]))]),
            quakes(id: "quakes", source: "quakes", sourceLayer: "quakes", stroke: "#0d1b2a", strokeWidth: 0.5),
        ]
        if recent {
            sources.append(("recent", .object([("type", .string("geojson")), ("data", .string(BundleFileName.recent)), attribution])))
            layers.append(quakes(id: "recent", source: "recent", sourceLayer: nil, stroke: "#f8fafc", strokeWidth: 1))
        }
        let style: JSON = .object([
            ("version", .int(8)),
            ("name", .string(name)),
            ("metadata", .object([("quake-bake:legend", legend), ("quake-bake:unknown", .string(MagnitudeLegend.unknownColour)),
                                  ("quake-bake:cluster", .string(MagnitudeLegend.clusterColour))])),
            ("sources", .object(sources)),
            ("layers", .array(layers)),
        ])
        return style.text + "\n"
    }
}

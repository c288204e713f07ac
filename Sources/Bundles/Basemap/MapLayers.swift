import QuakeBundleFormat
import QuakeCatalog
import QuakeTiles

/// The layers of the map besides the quakes: land and plate boundaries under them, and the
/// heat of the low zooms. The one definition of them: `style.json` holds them as written here
/// (`StyleWriter`), `preview.html` carries the same JSON and draws it on its canvas
/// (`PreviewWriter`, `PreviewPage`), and `serve` hands the browser the bundle's `style.json`.
///
/// Colours chosen to stay apart from the magnitude legend's (`MagnitudeLegend`: blue, cyan,
/// green-yellow, yellow, orange, red dots): slate land a step above the sea-blue background,
/// plate boundaries in a thin muted rose no quake class has, and a colourless heat, from
/// the summaries' grey to white, that says "how many" without saying "how big".
enum MapLayers {
    /// The basemap's sources: GeoJSON files beside the style in the bundle.
    static let landSource = "land", plateBoundariesSource = "plates"
    /// Natural Earth is public domain; credited anyway.
    static let landAttribution = "Land: Natural Earth (public domain)"
    /// ODC-By 1.0 asks that this travels with the data (data/basemap/README.md).
    static let plateBoundariesAttribution = "Plate boundaries: Bird (2003), PB2002; conversion by Ahlenius/Nordpil, ODC-By 1.0"

    static let landColour = "#1e3247", coastColour = "#3d5a78"
    static let plateBoundaryColour = "#d68fae"

    /// The sources the basemap's layers draw from.
    static var basemapSources: [(String, JSON)] {
        [(landSource, .object([("type", .string("geojson")), ("data", .string(BundleFileName.land)), ("attribution", .string(landAttribution))])),
         (plateBoundariesSource, .object([("type", .string("geojson")), ("data", .string(BundleFileName.plateBoundaries)),
                                          ("attribution", .string(plateBoundariesAttribution))]))]
    }

    /// Land (countries, outlined) and plate boundaries, drawn over the background in this order.
    static var basemap: [JSON] {
        [.object([("id", .string("land")), ("type", .string("fill")), ("source", .string(landSource)),
                  ("paint", .object([("fill-color", .string(landColour)), ("fill-outline-color", .string(coastColour))]))]),
         .object([("id", .string("plate-boundaries")), ("type", .string("line")), ("source", .string(plateBoundariesSource)),
                  ("layout", .object([("line-join", .string("round")), ("line-cap", .string("round"))])),
                  ("paint", .object([("line-color", .string(plateBoundaryColour)), ("line-opacity", .number(0.85)),
                                     ("line-width", byZoom([(0, 1), (4, 1.4), (9, 2.2)]))]))])]
    }

    /// The heatmap over the tiles' `heat` layer (`HeatLayer`: every quake of the tiles counted per
    /// 8-pixel cell), weighted by the count, so the heat is the true number of quakes, not of
    /// the thinned ones drawn. On at the low zooms, fading out into the quakes by zoom 5, the
    /// first whose tiles carry no heat. (`point_count` is there on every point of the layer;
    /// the `coalesce` keeps the weight 1 for a point that has none, as a lone quake.) The weight
    /// is linear, the colour ramp's stops tenfold apart (a lone quake's heat about 0.004, one
    /// of ten 0.04, …; the intensity grows with the zoom as the cells shrink), so that a few
    /// quakes and tens of thousands (the real catalog's California) both show.
    static var heat: JSON {
        .object([("id", .string("heat")), ("type", .string("heatmap")), ("source", .string("quakes")),
                 ("source-layer", .string(HeatLayer.name)), ("maxzoom", .int(HeatLayer.maxZoom + 1)),
                 ("paint", .object([
                     ("heatmap-weight", .array([.string("coalesce"), .array([.string("get"), .string(HeatLayer.countField)]), .int(1)])),
                     ("heatmap-intensity", byZoom([(0, 0.01), (4, 0.25)])),
                     ("heatmap-radius", byZoom([(0, 12), (2, 16), (4, 24)])),
                     ("heatmap-opacity", byZoom([(0, 0.85), (3, 0.75), (Double(HeatLayer.maxZoom + 1), 0)])),
                     ("heatmap-color", .array([.string("interpolate"), .array([.string("linear")]), .array([.string("heatmap-density")]),
                                               .int(0), .string("rgba(119,136,153,0)"), .number(0.004), .string("rgba(119,136,153,0.3)"),
                                               .number(0.04), .string("rgba(150,166,186,0.5)"), .number(0.3), .string("rgba(200,212,226,0.7)"),
                                               .int(1), .string("rgba(255,255,255,0.9)")])),
                 ]))])
    }

    /// `["interpolate", ["linear"], ["zoom"], z0, v0, …]`.
    private static func byZoom(_ stops: [(Double, Double)]) -> JSON {
        .array([.string("interpolate"), .array([.string("linear")]), .array([.string("zoom")])] + stops.flatMap { [JSON.number($0.0), .number($0.1)] })
    }
}

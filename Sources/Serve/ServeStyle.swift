import Foundation

/// The bundle's `style.json` as `serve` hands it to the browser: the `quakes` source points
/// at this server's tiles, the `recent` source (if any) at its `recent.geojson`, everything
/// else as the bundle wrote it.
enum ServeStyle {
    static func rewrite(_ file: URL, host: String, minZoom: Int, maxZoom: Int) throws -> Data {
        guard var style = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              var sources = style["sources"] as? [String: Any] else {
            throw ServeError("\(file.path) is not a MapLibre style")
        }
        sources["quakes"] = ["type": "vector", "tiles": ["http://\(host)/tiles/{z}/{x}/{y}.pbf"], "minzoom": minZoom, "maxzoom": maxZoom,
                             "attribution": "Earthquakes: U.S. Geological Survey, ComCat"] as [String: Any]
        if var recent = sources["recent"] as? [String: Any], let file = recent["data"] as? String {
            recent["data"] = "http://\(host)/\(file)"
            sources["recent"] = recent
        }
        style["sources"] = sources
        return try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys])
    }
}

/// A problem `serve` names in words.
struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation

/// The bundle's `style.json` as `serve` hands it to the browser: the `quakes` source points
/// at this server's tiles, each GeoJSON source that names a file of the bundle (`recent`,
/// `land`, `plates`) at that file here, everything else as the bundle wrote it.
enum ServeStyle {
    static func rewrite(_ file: URL, host: String, minZoom: Int, maxZoom: Int) throws -> Data {
        guard var style = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              var sources = style["sources"] as? [String: Any] else {
            throw ServeError("\(file.path) is not a MapLibre style")
        }
        sources["quakes"] = ["type": "vector", "tiles": ["http://\(host)/tiles/{z}/{x}/{y}.pbf"], "minzoom": minZoom, "maxzoom": maxZoom,
                             "attribution": "Earthquakes: U.S. Geological Survey, ComCat"] as [String: Any]
        for (name, value) in sources {
            guard var source = value as? [String: Any], source["type"] as? String == "geojson", let file = source["data"] as? String,
                  BundleHTTPHandler.plainFiles[file] != nil else { continue }
            source["data"] = "http://\(host)/\(file)"
            sources[name] = source
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

import Foundation
import QuakeBundles
import QuakeCommon

/// The bundle's `style.json` as `serve` hands it to the browser, once `StyleValidator` has
/// passed it (a bundle's style may have been edited since it was written): the `quakes` source points
/// at this server's tiles, each GeoJSON source that names a file of the bundle (`recent`,
/// `land`, `plates`) at that file here, everything else as the bundle wrote it.
enum ServeStyle {
    static func rewrite(_ file: URL, host: String, minZoom: Int, maxZoom: Int) throws -> Data {
        let bytes = try InputFile.bytes(of: file, maxBytes: StyleValidator.maxBytes, for: .style)
        var style: [String: Any]
        do { style = try StyleValidator.validate(bytes).root } catch { throw QuakeBakeError("\(file.path): \(error.description)", exitStatus: .dataError) }
        var sources = style["sources"] as? [String: Any] ?? [:]
        sources["quakes"] = ["type": "vector", "tiles": ["http://\(host)/tiles/{z}/{x}/{y}.pbf"], "minzoom": minZoom, "maxzoom": maxZoom,
                             "attribution": "Earthquakes: U.S. Geological Survey, ComCat"] as [String: Any]
        for (name, value) in sources {
            guard var source = value as? [String: Any], source["type"] as? String == "geojson", let file = source["data"] as? String,
                  BundleRoutes.plainFiles[file] != nil else { continue }
            source["data"] = "http://\(host)/\(file)"
            sources[name] = source
        }
        style["sources"] = sources
        return try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys])
    }
}

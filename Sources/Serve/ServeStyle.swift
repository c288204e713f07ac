import Foundation
import QuakeBundles
import QuakeCommon

/// The bundle's `style.json` as `serve` hands it to the browser, once `StyleValidator` has
/// passed it (a bundle's style may have been edited since it was written): the `quakes` source
/// points at this server's tiles, the `recent` source (if any) at its `recent.geojson`,
/// everything else as the bundle wrote it.
enum ServeStyle {
    static func rewrite(_ file: URL, host: String, minZoom: Int, maxZoom: Int) throws -> Data {
        let bytes = try InputFile.bytes(of: file, maxBytes: StyleValidator.maxBytes, for: .style)
        var style: [String: Any]
        do { style = try StyleValidator.validate(bytes).root } catch { throw QuakeBakeError("\(file.path): \(error.description)", exitStatus: .dataError) }
        var sources = style["sources"] as? [String: Any] ?? [:]
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

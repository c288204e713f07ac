import Foundation

/// Checks a MapLibre style (spec v8) for the shape MapLibre requires of the parts quake-bake
/// reads and rewrites: the root object, `version` exactly 8, `sources` (each with a known
/// `type`; a `quakes` source), and `layers` (each with a unique `id`, a known `type`, a
/// `source` that exists, a `source-layer` for a vector source, `paint` and `layout` objects,
/// zooms in 0…24). What it does not read (expressions, colours) is left to MapLibre; the pages
/// never put a style's values into HTML.
///
/// One entry point, bytes in, a style or a `StyleValidator.Problem` out, so that it can be
/// fuzzed (`validate(_:)`). `export --style`, the configuration's `style:` and `serve` (for the
/// bundle's `style.json`) all go through it.
public enum StyleValidator {
    /// The largest style read: a style is a few kilobytes; a whole basemap style a few hundred.
    public static let maxBytes = 4 << 20
    /// The most sources and layers a style may have: a detailed basemap has a few hundred layers.
    public static let maxLayers = 10_000
    public static let maxSources = 1_000

    /// Source types of the style spec.
    static let sourceTypes: Set<String> = ["vector", "raster", "raster-dem", "geojson", "image", "video"]
    /// Layer types of the style spec that MapLibre GL JS 5 draws.
    static let layerTypes: Set<String> = ["background", "fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster", "hillshade"]

    /// What is wrong with a style, in words (without the file's name: the caller adds it).
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A style that passed: its root object as `JSONSerialization` reads it.
    public struct Style: @unchecked Sendable {
        public let root: [String: Any]
    }

    /// Checks `bytes` as a MapLibre style.
    public static func validate(_ bytes: Data) throws(Problem) -> Style {
        func fail(_ why: String) -> Problem { Problem(description: why) }
        guard bytes.count <= maxBytes else { throw fail("\(bytes.count) bytes, over the \(maxBytes >> 20) MB a style may have") }
        guard let root = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] else {
            throw fail("not a JSON object (a MapLibre style, spec v8)")
        }
        guard let version = root["version"] as? NSNumber, !isBoolean(version), version.doubleValue == 8 else {
            throw fail("not a MapLibre style: \"version\" must be 8, not \(describe(root["version"]))")
        }
        if let name = root["name"], !(name is String) { throw fail("\"name\" must be a string") }
        guard let sources = root["sources"] as? [String: Any] else { throw fail("\"sources\" must be an object of sources") }
        guard sources.count <= maxSources else { throw fail("\(sources.count) sources, over the \(maxSources) a style may have") }
        var sourceTypes: [String: String] = [:]
        for (id, value) in sources {
            guard let source = value as? [String: Any] else { throw fail("source \(quoted(id)) must be an object") }
            guard let type = source["type"] as? String, Self.sourceTypes.contains(type) else {
                throw fail("source \(quoted(id)) has \"type\" \(describe(source["type"])), not one of \(Self.sourceTypes.sorted().joined(separator: ", "))")
            }
            if let problem = zoomProblem(source, in: "source \(quoted(id))") { throw fail(problem) }
            // quake-bake points `quakes` at its vector tiles, whatever the style says it is.
            sourceTypes[id] = id == "quakes" ? "vector" : type
        }
        guard sources["quakes"] is [String: Any] else {
            throw fail("has no \"sources\": { \"quakes\": … } for the bundle's tiles (layers use it with source-layer quakes and clusters)")
        }
        guard let layers = root["layers"] as? [Any] else { throw fail("\"layers\" must be an array of layers") }
        guard layers.count <= maxLayers else { throw fail("\(layers.count) layers, over the \(maxLayers) a style may have") }
        var ids: Set<String> = []
        for (index, value) in layers.enumerated() {
            guard let layer = value as? [String: Any] else { throw fail("layer \(index) must be an object") }
            guard let id = layer["id"] as? String, !id.isEmpty else { throw fail("layer \(index) has no \"id\" string") }
            let name = "layer \(quoted(id))"
            guard ids.insert(id).inserted else { throw fail("\(name) is defined twice (ids must be unique)") }
            guard let type = layer["type"] as? String, layerTypes.contains(type) else {
                throw fail("\(name) has \"type\" \(describe(layer["type"])), not one of \(layerTypes.sorted().joined(separator: ", "))")
            }
            for part in ["paint", "layout"] where layer[part] != nil && !(layer[part] is [String: Any]) {
                throw fail("\(name): \"\(part)\" must be an object")
            }
            if let problem = zoomProblem(layer, in: name) { throw fail(problem) }
            guard type != "background" else { continue }
            guard let source = layer["source"] as? String else { throw fail("\(name) has no \"source\" string") }
            guard let sourceType = sourceTypes[source] else { throw fail("\(name) draws from source \(quoted(source)), which the style does not define") }
            if sourceType == "vector" && !(layer["source-layer"] is String) {
                throw fail("\(name) draws from the vector source \(quoted(source)) without a \"source-layer\" string")
            }
        }
        return Style(root: root)
    }

    /// `minzoom` and `maxzoom`, when given, must be numbers in 0…24, the first not above the second.
    private static func zoomProblem(_ object: [String: Any], in name: String) -> String? {
        var zooms: [Double] = []
        for key in ["minzoom", "maxzoom"] {
            guard let value = object[key] else { continue }
            guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue.isFinite, (0...24).contains(number.doubleValue) else {
                return "\(name): \"\(key)\" must be a zoom 0…24, not \(describe(value))"
            }
            zooms.append(number.doubleValue)
        }
        if let min = object["minzoom"] as? NSNumber, let max = object["maxzoom"] as? NSNumber, min.doubleValue > max.doubleValue {
            return "\(name): \"minzoom\" \(min) is above \"maxzoom\" \(max)"
        }
        return nil
    }

    /// JSON `true` and `false` come out of `JSONSerialization` as numbers too.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// A value as the message quotes it: short, on one line.
    private static func describe(_ value: Any?) -> String {
        switch value {
        case nil: return "missing"
        case let string as String: return quoted(string)
        case let number as NSNumber: return isBoolean(number) ? (number.boolValue ? "true" : "false") : "\(number)"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "null"
        }
    }

    private static func quoted(_ text: String) -> String {
        let short = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
        return "\"" + short.replacingOccurrences(of: "\n", with: " ") + "\""
    }
}

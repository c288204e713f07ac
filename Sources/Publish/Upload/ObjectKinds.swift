import Foundation

/// The HTTP metadata of the objects publish writes.
enum ObjectKinds {
    /// Content-addressed objects: never written again with other content.
    static let immutable = "public, max-age=31536000, immutable"
    /// The pointer: read again every time.
    static let pointer = "no-cache"

    /// A file name's extension as a key keeps it: everything from its first dot
    /// (`z3.geojson.gz` → `.geojson.gz`), empty without one.
    static func extensionOf(_ name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = last.dropFirst().firstIndex(of: ".") else { return "" }
        return String(last[dot...])
    }

    /// The `Content-Type` of a file called `name` (as stored).
    static func contentType(_ name: String) -> String {
        let ext = extensionOf(name).lowercased()
        let types: [(String, String)] = [
            (".pmtiles", "application/vnd.pmtiles"), (".mbtiles", "application/vnd.sqlite3"), (".sqlite", "application/vnd.sqlite3"),
            (".gz", "application/gzip"), (".geojson", "application/geo+json"), (".json", "application/json"),
            (".html", "text/html; charset=utf-8"), (".css", "text/css; charset=utf-8"), (".js", "text/javascript; charset=utf-8"),
            (".png", "image/png"), (".jpg", "image/jpeg"), (".webp", "image/webp"), (".svg", "image/svg+xml"),
            (".pbf", "application/x-protobuf"), (".mvt", "application/vnd.mapbox-vector-tile"), (".txt", "text/plain; charset=utf-8"),
        ]
        return types.first { ext.hasSuffix($0.0) }?.1 ?? "application/octet-stream"
    }
}

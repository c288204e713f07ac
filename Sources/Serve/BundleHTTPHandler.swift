import FlyingFox
import Foundation
import Logging
import QuakeBundles
import QuakeCommon

/// Answers the browser: the map page, MapLibre GL JS, the bundle's style (its source pointed
/// at this server), its tiles and its plain files. Everything else is 404.
///
/// The bundle is found again for every request (`current` may be switched by a cron export
/// while this runs), and a tile's ETag names its bundle version, so a new version is never
/// mistaken for the old one in a browser cache.
struct BundleHTTPHandler: HTTPHandler {
    let locate: @Sendable () throws -> URL
    let archives: ArchiveCache
    let logger: Logger

    /// The files served from the binary, encoded once (MapLibre GL JS is a megabyte).
    private static let javascript = Data(MapLibreGL.javascript.utf8)
    private static let stylesheet = Data(MapLibreGL.stylesheet.utf8)
    private static let basemap = Data(Basemap.countries.utf8)

    /// Files of the bundle served as they are.
    static let plainFiles: [String: String] = [
        "manifest.json": "application/json", "timeline.json": "application/json", "preview.html": "text/html; charset=utf-8",
        "quakes.pmtiles": "application/octet-stream", "quakes.mbtiles": "application/octet-stream", "quakes.sqlite": "application/octet-stream",
        "recent.geojson": "application/geo+json",
    ]

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.target.path()
        let response: HTTPResponse
        do {
            response = try answer(path, request: request)
        } catch {
            logger.error("\(path): \(ErrorText.message(error))")
            response = Self.text(500, "Internal Server Error: \(ErrorText.message(error))\n")
        }
        logger.debug("\(request.method.rawValue) \(path) → \(response.statusCode.code)")
        // Any page may draw these tiles (an app's own page, a file on disk).
        var shared = response
        shared.headers[HTTPHeader("Access-Control-Allow-Origin")] = "*"
        return shared
    }

    private func answer(_ path: String, request: HTTPRequest) throws -> HTTPResponse {
        guard request.method == .GET || request.method == .HEAD else { return Self.text(405, "Method Not Allowed\n") }
        let bundle = try locate()
        switch path {
        case "/", "/index.html":
            return Self.body(Data(ServePage.html(title: bundle.lastPathComponent).utf8), type: "text/html; charset=utf-8", cache: "no-cache")
        case "/maplibre-gl.js":
            return Self.body(Self.javascript, type: "text/javascript; charset=utf-8", cache: "public, max-age=86400")
        case "/maplibre-gl.css":
            return Self.body(Self.stylesheet, type: "text/css; charset=utf-8", cache: "public, max-age=86400")
        case "/basemap.json":
            return Self.body(Self.basemap, type: "application/json", cache: "public, max-age=86400")
        case "/style.json":
            let archive = try archives.archive(for: bundle)
            return Self.body(try ServeStyle.rewrite(bundle.appendingPathComponent("style.json"), host: request.headers[.host] ?? "127.0.0.1",
                                                    minZoom: archive.minZoom, maxZoom: archive.maxZoom),
                             type: "application/json", cache: "no-cache")
        default:
            break
        }
        if path.hasPrefix("/tiles/") { return try tile(String(path.dropFirst("/tiles/".count)), bundle: bundle, request: request) }
        if path.hasPrefix("/details/"), path.hasSuffix(".json") {
            // A quake's details: only a file name `BundleDetails.path(of:)` gives (no other path is read).
            let id = String(path.dropFirst("/details/".count).dropLast(".json".count))
            guard let file = BundleDetails.path(of: id), let data = try? Data(contentsOf: bundle.appendingPathComponent(file)) else {
                return Self.text(404, "Not Found: no details of this quake in the bundle\n")
            }
            return Self.body(data, type: "application/json", cache: "no-cache")
        }
        let name = String(path.dropFirst())
        if let type = Self.plainFiles[name], let data = try? Data(contentsOf: bundle.appendingPathComponent(name), options: .mappedIfSafe) {
            return Self.body(data, type: type, cache: "no-cache")
        }
        return Self.text(404, "Not Found\n")
    }

    /// `z/x/y.pbf`: the stored gzip MVT with `Content-Encoding: gzip`; 204 for an empty tile of
    /// the pyramid (MapLibre draws nothing there), 404 outside it or for a malformed address.
    private func tile(_ address: String, bundle: URL, request: HTTPRequest) throws -> HTTPResponse {
        let parts = address.replacingOccurrences(of: ".pbf", with: "").replacingOccurrences(of: ".mvt", with: "").split(separator: "/")
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]), (0...24).contains(z),
              (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return Self.text(404, "Not Found: no such tile address\n") }
        let archive = try archives.archive(for: bundle)
        guard (archive.minZoom...archive.maxZoom).contains(z) else { return Self.text(404, "Not Found: zoom \(z) is outside \(archive.minZoom)…\(archive.maxZoom)\n") }
        let etag = "\"\(archive.version)-\(z)-\(x)-\(y)\""
        if request.headers[HTTPHeader("If-None-Match")] == etag {
            return HTTPResponse(statusCode: .notModified, headers: HTTPHeaders([HTTPHeader("ETag"): etag]))
        }
        guard let data = try archive.tile(z: z, x: x, y: y) else {
            return HTTPResponse(statusCode: .noContent, headers: HTTPHeaders([HTTPHeader("ETag"): etag, HTTPHeader("Cache-Control"): "public, max-age=300"]))
        }
        var headers: HTTPHeaders = [HTTPHeader("Content-Type"): "application/vnd.mapbox-vector-tile", HTTPHeader("ETag"): etag,
                                    HTTPHeader("Cache-Control"): "public, max-age=300"]
        if Gzip.isCompressed(data) { headers[HTTPHeader("Content-Encoding")] = "gzip" }
        return HTTPResponse(statusCode: .ok, headers: headers, body: data)
    }

    private static func body(_ data: Data, type: String, cache: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [HTTPHeader("Content-Type"): type, HTTPHeader("Cache-Control"): cache], body: data)
    }

    private static func text(_ code: Int, _ text: String) -> HTTPResponse {
        let phrases = [404: "Not Found", 405: "Method Not Allowed", 500: "Internal Server Error"]
        return HTTPResponse(statusCode: HTTPStatusCode(code, phrase: phrases[code] ?? "Error"),
                     headers: [HTTPHeader("Content-Type"): "text/plain; charset=utf-8"], body: Data(text.utf8))
    }
}

/// The open tile archive of the bundle version served last (a version's files never change).
///
/// Only that one stays open: once `current` moves on, the older version's archive is closed
/// when the requests still reading it are answered. A `serve` beside a cron export would
/// otherwise hold every pruned version's `quakes.mbtiles` open, and the disk space of the
/// deleted files would not come back until it stopped.
final class ArchiveCache: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: (path: String, archive: TileArchive)?

    func archive(for bundle: URL) throws -> TileArchive {
        let path = bundle.path
        if let archive = lock.withLock({ latest?.path == path ? latest?.archive : nil }) { return archive }
        let archive = try TileArchive(bundle.appendingPathComponent("quakes.mbtiles"), version: bundle.lastPathComponent)
        lock.withLock { latest = (path, archive) }
        return archive
    }
}

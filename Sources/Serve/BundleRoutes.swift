import Foundation
import Logging
import NIOCore
import NIOHTTP1
import QuakeBundleFormat
import QuakeBundles
import QuakeCommon

/// Answers the browser: the map page, MapLibre GL JS, the bundle's style (its sources pointed
/// at this server), its tiles and its plain files. Everything else is 404.
///
/// The bundle is found again for every request (`current` may be switched by a cron export
/// while this runs), and a tile's ETag names its bundle version, so a new version is never
/// mistaken for the old one in a browser cache. Runs on the server's thread pool (it reads files
/// and SQLite), never on the event loop.
struct BundleRoutes: Sendable {
    let locate: @Sendable () throws -> URL
    let archives: ArchiveCache
    let logger: Logger

    /// The files served from the binary, encoded once (MapLibre GL JS is a megabyte).
    private static let javascript = ByteBuffer(string: MapLibreGL.javascript)
    private static let stylesheet = ByteBuffer(string: MapLibreGL.stylesheet)

    /// Files of the bundle served as they are.
    static let plainFiles: [String: String] = [
        BundleFileName.manifest: "application/json", BundleFileName.timeline: "application/json", BundleFileName.preview: "text/html; charset=utf-8",
        BundleFileName.pmtiles: "application/octet-stream", BundleFileName.tiles: "application/octet-stream",
        BundleFileName.appDatabase: "application/octet-stream", BundleFileName.recent: "application/geo+json",
        BundleFileName.land: "application/geo+json", BundleFileName.plateBoundaries: "application/geo+json",
    ]

    /// The path the bundle's style is served at (rewritten to point at this server).
    private static let stylePath = "/" + BundleFileName.style
    /// Where the quakes' details documents are served.
    private static let detailsPath = "/" + BundleFileName.details + "/"

    /// What a page of another origin draws from: the style, the tiles and the GeoJSON layers the
    /// style points at. Only these carry CORS headers, and only for a request that asks (`Origin`).
    private static func isForMaps(_ path: String) -> Bool {
        path == stylePath || path.hasPrefix("/tiles/") || (path.hasSuffix(".geojson") && plainFiles[String(path.dropFirst())] != nil)
    }

    /// The answer to `head`; `defaultHost` (`host:port` the client reached) goes into the style's
    /// URLs when the request's `Host` is missing or malformed.
    func answer(_ head: HTTPRequestHead, defaultHost: String) -> ServeAnswer {
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        var answer: ServeAnswer
        do {
            answer = try route(path, head: head, defaultHost: defaultHost)
        } catch {
            logger.error("\(path): \(ErrorText.message(error))")
            answer = .text(.internalServerError, "Internal Server Error: \(ErrorText.message(error))\n")
        }
        if Self.isForMaps(path) {
            answer.headers.add(name: "Vary", value: "Origin")
            if head.headers.contains(name: "Origin") { answer.headers.add(name: "Access-Control-Allow-Origin", value: "*") }
        }
        logger.debug("\(head.method.rawValue) \(path) → \(answer.status.code)")
        return answer
    }

    private func route(_ path: String, head: HTTPRequestHead, defaultHost: String) throws -> ServeAnswer {
        guard head.method == .GET || head.method == .HEAD else {
            var answer = ServeAnswer.text(.methodNotAllowed, "Method Not Allowed\n")
            answer.headers.add(name: "Allow", value: "GET, HEAD")
            return answer
        }
        let bundle = try locate()
        switch path {
        case "/", "/index.html":
            return .bytes(ByteBuffer(string: ServePage.html(title: bundle.lastPathComponent)), type: "text/html; charset=utf-8", cache: "no-cache")
        case "/maplibre-gl.js":
            return .bytes(Self.javascript, type: "text/javascript; charset=utf-8", cache: "public, max-age=86400")
        case "/maplibre-gl.css":
            return .bytes(Self.stylesheet, type: "text/css; charset=utf-8", cache: "public, max-age=86400")
        case Self.stylePath:
            let archive = try archives.archive(for: bundle)
            let style = try ServeStyle.rewrite(bundle.appendingPathComponent(BundleFileName.style), host: host(of: head, defaultHost: defaultHost),
                                               minZoom: archive.minZoom, maxZoom: archive.maxZoom)
            return .bytes(ByteBuffer(bytes: style), type: "application/json", cache: "no-cache")
        default:
            break
        }
        if path.hasPrefix("/tiles/") { return try tile(String(path.dropFirst("/tiles/".count)), bundle: bundle, head: head) }
        if path.hasPrefix(Self.detailsPath), path.hasSuffix(".json") {
            // A quake's details: only a file name `BundleDetails.path(of:)` gives (no other path is read).
            let id = String(path.dropFirst(Self.detailsPath.count).dropLast(".json".count))
            guard let file = BundleDetails.path(of: id), let answer = ServeAnswer.file(bundle.appendingPathComponent(file), type: "application/json") else {
                return .text(.notFound, "Not Found: no details of this quake in the bundle\n")
            }
            return answer
        }
        let name = String(path.dropFirst())
        if let type = Self.plainFiles[name], let answer = ServeAnswer.file(bundle.appendingPathComponent(name), type: type) {
            return answer
        }
        return .text(.notFound, "Not Found\n")
    }

    /// The request's `Host` when it is a plain `host[:port]` (letters, digits, `.-:[]%`), else
    /// this server's own address: it is written into the style's URLs.
    private func host(of head: HTTPRequestHead, defaultHost: String) -> String {
        func plain(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || ".-:[]%".utf8.contains(byte)
        }
        guard let host = head.headers.first(name: "Host"), (1...255).contains(host.utf8.count), host.utf8.allSatisfy(plain) else { return defaultHost }
        return host
    }

    /// `z/x/y.pbf`: the stored gzip MVT with `Content-Encoding: gzip`; 204 for an empty tile of
    /// the pyramid (MapLibre draws nothing there), 404 outside it or for a malformed address.
    private func tile(_ address: String, bundle: URL, head: HTTPRequestHead) throws -> ServeAnswer {
        let parts = address.replacingOccurrences(of: ".pbf", with: "").replacingOccurrences(of: ".mvt", with: "").split(separator: "/")
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]), TileArchive.zooms.contains(z),
              (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return .text(.notFound, "Not Found: no such tile address\n") }
        let archive = try archives.archive(for: bundle)
        guard (archive.minZoom...archive.maxZoom).contains(z) else { return .text(.notFound, "Not Found: zoom \(z) is outside \(archive.minZoom)…\(archive.maxZoom)\n") }
        let etag = "\"\(archive.version)-\(z)-\(x)-\(y)\""
        var headers = HTTPHeaders([("ETag", etag), ("Cache-Control", "public, max-age=300")])
        if head.headers.first(name: "If-None-Match") == etag { return ServeAnswer(status: .notModified, headers: headers, body: .none) }
        guard let data = try archive.tile(z: z, x: x, y: y) else { return ServeAnswer(status: .noContent, headers: headers, body: .none) }
        headers.add(name: "Content-Type", value: "application/vnd.mapbox-vector-tile")
        if Gzip.isCompressed(data) { headers.add(name: "Content-Encoding", value: "gzip") }
        return ServeAnswer(status: .ok, headers: headers, body: .bytes(ByteBuffer(bytes: data)))
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
        let archive = try TileArchive(bundle.appendingPathComponent(BundleFileName.tiles), version: bundle.lastPathComponent)
        lock.withLock { latest = (path, archive) }
        return archive
    }
}

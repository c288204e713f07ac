/// The names of a bundle's files (docs/bundle.md), each written here and nowhere else: the
/// export writes the files under these names, and the deltas, `serve`, `publish` and the app
/// library (QuakeBundleKit) find them by the same names.
public enum BundleFileName {
    /// The tiles as MBTiles 1.3 (``MBTiles``): what `serve` reads and the deltas keep current.
    public static let tiles = "quakes.mbtiles"
    /// The same tiles as one PMTiles v3 archive, for web clients.
    public static let pmtiles = "quakes.pmtiles"
    /// The app database (``AppDatabaseSchema``): one row per quake, its details, an R-tree.
    public static let appDatabase = "quakes.sqlite"
    /// The MapLibre style, its quakes source pointed at ``pmtiles``.
    public static let style = "style.json"
    /// What the bundle is and holds: its version and every file with its size and sha256.
    public static let manifest = "manifest.json"
    /// The quakes per day, for the app's time slider.
    public static let timeline = "timeline.json"
    /// The quakes the tiles leave out to keep app updates small (the recent layer).
    public static let recent = "recent.geojson"
    /// The offline map: one HTML file that needs no server.
    public static let preview = "preview.html"
    /// The basemap's land and plate boundaries (not there with `--basemap none`).
    public static let land = "land.geojson", plateBoundaries = "plate-boundaries.geojson"

    /// The folder of the GeoJSON zooms (``geoJSONZoom(_:)``), for web clients.
    public static let geoJSONZooms = "geojson"
    /// The folder of the quakes' details documents, `details/<id>.json`.
    public static let details = "details"

    /// The path in a bundle of the points of zoom `zoom` as gzip GeoJSON.
    public static func geoJSONZoom(_ zoom: Int) -> String { "\(geoJSONZooms)/z\(zoom).geojson.gz" }

    /// The folder of the deltas (``DeltaSchema``) from older versions.
    public static let deltas = "deltas"

    /// The files the deltas keep current; a delta carries the changes of each, in a file of the
    /// same extension (``tilesDelta(from:)``, ``rowsDelta(from:)``).
    public static let synced = [appDatabase, tiles]

    /// The path in a bundle of the delta of ``tiles`` from version `base`.
    public static func tilesDelta(from base: String) -> String { delta(of: tiles, from: base) }

    /// The path in a bundle of the delta of ``appDatabase`` from version `base`.
    public static func rowsDelta(from base: String) -> String { delta(of: appDatabase, from: base) }

    /// The path of the delta of the synced file `file` from version `base`: `deltas/<base>.<file's extension>`.
    public static func delta(of file: String, from base: String) -> String {
        "\(deltas)/\(base).\(file.split(separator: ".").last!)"
    }

    /// The synced file whose delta `path` is (`deltas/<N>.mbtiles` → ``tiles``), by its extension.
    public static func syncedFile(ofDelta path: String) -> String? {
        synced.first { path.hasSuffix("." + $0.split(separator: ".").last!) }
    }
}

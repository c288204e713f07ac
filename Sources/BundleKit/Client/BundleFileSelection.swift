import QuakeBundleFormat

/// Which of a publication's files a ``BundleClient`` keeps: `quakes.sqlite` and `quakes.mbtiles`
/// always (the queries and the deltas need them), and the others this selection takes.
public struct BundleFileSelection: Sendable {
    private let takes: @Sendable (String) -> Bool

    /// A selection that keeps the files (by bundle name, e.g. `geojson/z3.geojson.gz`) for which `takes` holds.
    public init(_ takes: @escaping @Sendable (String) -> Bool) {
        self.takes = takes
    }

    /// Whether the file named `name` is kept.
    public func contains(_ name: String) -> Bool {
        BundleFileName.synced.contains(name) || takes(name)
    }

    /// What a map app reads: every file but those only a web client needs. The app draws the
    /// tiles from `quakes.mbtiles` (MapLibre Native: `mbtiles:///…/current/quakes.mbtiles`)
    /// and the recent layer from `quakes.sqlite`, and reads a quake's details from its `details`
    /// table (``QuakeBundle/details(featureID:)``), so `quakes.pmtiles` (which changes as a whole
    /// with any tile), `recent.geojson`, the GeoJSON zooms, `preview.html` and the
    /// `details/<id>.json` files (one per quake with details, for `serve` and web clients) stay
    /// on the server.
    public static let app = BundleFileSelection { name in
        !webOnly.contains(name) && !webOnlyFolders.contains { name.hasPrefix($0) }
    }

    /// Every file the pointer names (a mirror of the publication for web clients too).
    public static let all = BundleFileSelection { _ in true }

    /// The files only a web client reads.
    public static let webOnly: Set<String> = [BundleFileName.pmtiles, BundleFileName.recent, BundleFileName.preview]
    /// The folders whose files only a web client (or `serve`) reads.
    public static let webOnlyFolders = [BundleFileName.geoJSONZooms + "/", BundleFileName.details + "/"]
}

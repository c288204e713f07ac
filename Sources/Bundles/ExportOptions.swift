import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// Which events of the store a bundle holds.
public struct Selection: Hashable, Sendable {
    /// Earliest origin time, ms since 1970 UTC, inclusive (`--since`).
    public var since: Int64?
    /// Latest origin time, ms since 1970 UTC, exclusive (`--until`).
    public var until: Int64?
    /// Smallest magnitude (`--min-magnitude`); events without one are left out when set.
    public var minMagnitude: Double?
    /// Area (`--bbox`).
    public var bbox: BoundingBox?
    /// Event types (`--event-type`); empty means every type.
    public var eventTypes: [String] = []

    public init() {}

    /// Checks the selection; throws a usage error naming the bad part.
    public func validate() throws {
        if let since, let until, until <= since {
            throw QuakeBakeError("--until (\(ISOTime.format(milliseconds: until))) must be after --since (\(ISOTime.format(milliseconds: since)))",
                                 exitStatus: .usage)
        }
        if let minMagnitude, !minMagnitude.isFinite {
            throw QuakeBakeError("--min-magnitude must be a number", exitStatus: .usage)
        }
    }
}

/// Everything `quake-bake export` can be told.
public struct ExportOptions: Hashable, Sendable {
    /// Which events.
    public var selection = Selection()
    /// How they are thinned per zoom.
    public var thinning = ThinningOptions()
    /// Feature attributes in the tiles and GeoJSON (`--attributes`).
    public var attributes = EventAttribute.defaults
    /// Zooms with at most this many features (events and clusters) get a GeoJSON file and a preview layer.
    public var geoJSONMaxFeatures = 50_000
    /// The tileset name in the MBTiles and PMTiles metadata (`--name`).
    public var name = "quakes"
    /// The user's own style for `style.json` (`--style`); `nil`: the default style.
    public var style: StyleTemplate?
    /// What the default style draws under the quakes, from files written into the bundle (`--basemap`).
    public var basemap = Basemap.naturalEarth
    /// Bundle versions kept after publishing, the new one included (`--keep`).
    public var keep = 3
    /// Write deltas from the older versions kept, for apps that update by delta (off with `--no-deltas`).
    public var deltas = true
    /// Keep the events of the last N to 2N days out of the tiles, in a recent layer of their own
    /// (`--recent-days`; see `RecentLayer`): deltas stay small when only recent events change.
    public var recentDays = RecentDays.auto
    /// Start from the current bundle (off with `--full`; the content is the same either way): read
    /// only the store rows that changed since it was made, reuse its unchanged tiles, and patch
    /// copies of its app database and MBTiles.
    public var reuseTiles = true

    public init() {}

    /// Checks the options; throws a usage error naming the bad one.
    public func validate() throws {
        try selection.validate()
        try thinning.validate()
        guard keep >= 1 else { throw QuakeBakeError("--keep must be at least 1, not \(keep)", exitStatus: .usage) }
        guard geoJSONMaxFeatures >= 0 else { throw QuakeBakeError("--geojson-max-features must not be negative", exitStatus: .usage) }
        guard !name.isEmpty else { throw QuakeBakeError("--name must not be empty", exitStatus: .usage) }
        try recentDays.validate()
    }

    /// The options that shape the bundle's content, as written into the manifest
    /// (`keep`, `deltas` and `reuseTiles` change how, not what, and are left out).
    var contentJSON: JSON {
        let s = selection, t = thinning
        let styleDigest: JSON = style.map { .string("sha256:" + $0.digest) } ?? .null
        return .object([
            ("selection", .object([
                ("since", s.since.map { .string(ISOTime.format(milliseconds: $0)) } ?? .null),
                ("until", s.until.map { .string(ISOTime.format(milliseconds: $0)) } ?? .null),
                ("min_magnitude", .number(s.minMagnitude)),
                ("bbox", s.bbox.map { .string($0.description) } ?? .null),
                ("event_types", .array(s.eventTypes.map(JSON.string))),
            ])),
            ("thinning", .object([
                ("min_zoom", .int(t.minZoom)),
                ("max_zoom", .int(t.maxZoom)),
                ("method", .string(t.method.rawValue)),
                ("cell_size", .int(t.cellSize)),
                ("per_cell", .int(t.perCell)),
                ("magnitude_floor", .string(t.magnitudeFloors.description)),
                ("stride", .int(t.stride)),
                ("clusters", .bool(t.clusters)),
                ("max_tile_bytes", .int(t.maxTileBytes)),
                ("max_tile_features", .int(t.maxTileFeatures)),
            ])),
            ("attributes", .array(attributes.map { .string($0.rawValue) })),
            ("geojson_max_features", .int(geoJSONMaxFeatures)),
            ("name", .string(name)),
            ("style", styleDigest),
            ("basemap", .string(basemap.rawValue)),
            ("recent_days", recentDays.json),
        ])
    }
}

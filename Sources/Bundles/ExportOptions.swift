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

/// A longitude/latitude box; `west > east` means it crosses the antimeridian.
public struct BoundingBox: Hashable, Sendable, CustomStringConvertible {
    public let west: Double
    public let south: Double
    public let east: Double
    public let north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Parses `west,south,east,north` in degrees; throws a usage error when malformed.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
            throw QuakeBakeError("--bbox: `\(text)` is not west,south,east,north in degrees", exitStatus: .usage)
        }
        guard (-180...180).contains(west), (-180...180).contains(east) else {
            throw QuakeBakeError("--bbox: longitudes must be within -180…180 (`\(text)`)", exitStatus: .usage)
        }
        guard (-90...90).contains(south), (-90...90).contains(north), south <= north else {
            throw QuakeBakeError("--bbox: latitudes must be within -90…90 with south ≤ north (`\(text)`)", exitStatus: .usage)
        }
        self.init(west: west, south: south, east: east, north: north)
    }

    /// True when the box wraps across longitude ±180.
    public var crossesAntimeridian: Bool { west > east }

    /// `west,south,east,north`.
    public var description: String {
        [west, south, east, north].map(JSON.format).joined(separator: ",")
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
    /// Bundle versions kept after publishing, the new one included (`--keep`).
    public var keep = 3
    /// Reuse unchanged tiles of the current bundle (off with `--full`; the result is the same either way).
    public var reuseTiles = true

    public init() {}

    /// Checks the options; throws a usage error naming the bad one.
    public func validate() throws {
        try selection.validate()
        try thinning.validate()
        guard keep >= 1 else { throw QuakeBakeError("--keep must be at least 1, not \(keep)", exitStatus: .usage) }
        guard geoJSONMaxFeatures >= 0 else { throw QuakeBakeError("--geojson-max-features must not be negative", exitStatus: .usage) }
        guard !name.isEmpty else { throw QuakeBakeError("--name must not be empty", exitStatus: .usage) }
    }

    /// The options that shape the bundle's content, as written into the manifest
    /// (`keep` and `reuseTiles` change how, not what, and are left out).
    var contentJSON: JSON {
        let s = selection, t = thinning
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
                ("grid", .bool(t.grid)),
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
        ])
    }
}

import Foundation

/// A rectangle of the map in degrees; `west > east` crosses the antimeridian (170 to -170 is the
/// 20° around it). Edges are inclusive.
public struct MapRect: Sendable, Equatable {
    /// The western edge, degrees of longitude.
    public var west: Double
    /// The southern edge, degrees of latitude.
    public var south: Double
    /// The eastern edge (less than `west`: the rectangle crosses the antimeridian).
    public var east: Double
    /// The northern edge.
    public var north: Double

    /// The rectangle from `west` to `east` and `south` to `north` (longitudes in -180…180, latitudes in -90…90).
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole world.
    public static let world = MapRect(west: -180, south: -90, east: 180, north: 90)

    /// Whether the point is inside.
    @inline(__always) public func contains(longitude: Double, latitude: Double) -> Bool {
        guard latitude >= south && latitude <= north else { return false }
        return west <= east ? (longitude >= west && longitude <= east) : (longitude >= west || longitude <= east)
    }
}

/// A span of origin times, `start` inclusive, `end` exclusive; nil ends are open.
public struct TimeWindow: Sendable, Equatable {
    /// Milliseconds since 1970 UTC, inclusive (nil: from the first quake).
    public var start: Int64?
    /// Milliseconds since 1970 UTC, exclusive (nil: up to the last quake).
    public var end: Int64?

    /// The quakes from `start` (inclusive) to `end` (exclusive), in milliseconds since 1970 UTC.
    public init(start: Int64? = nil, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    /// The quakes from `start` (inclusive) to `end` (exclusive).
    public init(from start: Date?, to end: Date?) {
        self.init(start: start.map(Self.milliseconds), end: end.map(Self.milliseconds))
    }

    /// All time.
    public static let all = TimeWindow()

    static func milliseconds(_ date: Date) -> Int64 {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return ms >= 9.2e18 ? .max : ms <= -9.2e18 ? .min : Int64(ms)
    }
}

/// A quake as a map shows it: where, when, how big.
public struct Quake: Sendable, Equatable {
    /// The id of its features in the tiles (the app database's rowid): ``QuakeBundle/details(featureID:)``.
    public let featureID: Int64
    /// Its preferred USGS id (`us7000abcd`).
    public let id: String
    /// Origin time, milliseconds since 1970 UTC.
    public let time: Int64
    /// Degrees, -180…180.
    public let longitude: Double
    /// Degrees, -90…90.
    public let latitude: Double
    /// Depth in km (nil: unknown).
    public let depthKm: Double?
    /// Magnitude (nil: unknown).
    public let magnitude: Double?
    /// The magnitude's type (`mb`, `ml`, `mww`, …).
    public let magnitudeType: String?
    /// Where, as USGS words it (`10 km SSW of Ridgecrest, CA`).
    public let place: String?

    /// The origin time as a date.
    public var date: Date { Date(timeIntervalSince1970: Double(time) / 1000) }

    /// The columns read for a ``Quake``, in this order.
    static let columns = ["rowid", "id", "time", "longitude", "latitude", "depth_km", "mag", "mag_type", "place"]

    init(_ row: SQLiteRow) {
        featureID = row.integer(0) ?? 0
        id = row.text(1) ?? ""
        time = row.integer(2) ?? 0
        longitude = row.real(3) ?? 0
        latitude = row.real(4) ?? 0
        depthKm = row.real(5)
        magnitude = row.real(6)
        magnitudeType = row.text(7)
        place = row.text(8)
    }
}

/// Everything the app database holds of one quake (its `events` row, docs/bundle.md).
public struct QuakeDetails: Sendable, Equatable {
    /// The quake as the map shows it.
    public let quake: Quake
    /// Every column of its row by name (`felt`, `alert`, `url`, `title`, …): `Int64`, `Double` or
    /// `String` values; a NULL column is absent.
    public let fields: [String: QuakeField]
    /// Its details document (ShakeMap, PAGER, moment tensor…; docs/details.md) when the bundle carries one.
    public let json: String?
}

/// One value of a quake's row.
public enum QuakeField: Sendable, Equatable {
    /// An INTEGER column (`felt`, `tsunami`, `sig`, `nst`, `time`, `updated`).
    case integer(Int64)
    /// A REAL column (`mag`, `depth_km`, `cdi`, `mmi`, `dmin`, `rms`, `gap`, the position).
    case real(Double)
    /// A TEXT column (`place`, `alert`, `status`, `url`, `title`, the ids…).
    case text(String)
}

/// One bar of a timeline: the quakes whose origin time lies in `[start, end)`.
public struct TimelineBin: Sendable, Equatable {
    /// Milliseconds since 1970, inclusive.
    public let start: Int64
    /// Milliseconds since 1970, exclusive.
    public let end: Int64
    /// How many quakes.
    public let count: Int
    /// The biggest magnitude among them (nil: none, or none known).
    public let maxMagnitude: Double?

    /// A bar of `count` quakes from `start` to `end` (ms), the biggest of magnitude `maxMagnitude`.
    public init(start: Int64, end: Int64, count: Int, maxMagnitude: Double?) {
        self.start = start
        self.end = end
        self.count = count
        self.maxMagnitude = maxMagnitude
    }
}

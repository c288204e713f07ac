import QuakeCommon

/// A longitude/latitude box in degrees, `west,south,east,north`; `west > east` crosses the antimeridian
/// (`170,-50,-170,-10` is the box from 170° E eastwards to 170° W).
public struct BoundingBox: Hashable, Sendable, Codable, CustomStringConvertible {
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

    /// Parses `west,south,east,north` and checks it; throws a usage error naming `--bbox`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
            throw QuakeBakeError("--bbox \"\(text)\" is not west,south,east,north (four numbers in degrees)", exitStatus: .usage)
        }
        self.init(west: west, south: south, east: east, north: north)
        try validate()
    }

    /// Checks the ranges; throws a usage error naming `--bbox` and the bad value.
    public func validate() throws {
        let n = Format.number
        for longitude in [west, east] where !(-180...180).contains(longitude) {
            throw QuakeBakeError("--bbox longitude \(n(longitude)) is outside -180…180", exitStatus: .usage)
        }
        for latitude in [south, north] where !(-90...90).contains(latitude) {
            throw QuakeBakeError("--bbox latitude \(n(latitude)) is outside -90…90", exitStatus: .usage)
        }
        if south > north { throw QuakeBakeError("--bbox south \(n(south)) is above north \(n(north))", exitStatus: .usage) }
        if west == east { throw QuakeBakeError("--bbox has zero width", exitStatus: .usage) }
    }

    /// True when the box wraps across longitude ±180.
    public var crossesAntimeridian: Bool { west > east }

    /// True when the point lies inside (bounds included).
    public func contains(longitude: Double, latitude: Double) -> Bool {
        guard (south...north).contains(latitude) else { return false }
        return crossesAntimeridian ? (longitude >= west || longitude <= east) : (west...east).contains(longitude)
    }

    /// `west,south,east,north`.
    public var description: String {
        [west, south, east, north].map(JSONText.number).joined(separator: ",")
    }
}

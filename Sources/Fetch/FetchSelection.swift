import Foundation
import QuakeCatalog
import QuakeCommon

/// Which events to fetch: the FDSN filters `fetch` sends with every request.
public struct FetchSelection: Sendable, Hashable, Codable {
    /// Start of the origin-time range, ms. `nil`: the last 30 days (a rolling selection).
    public var start: Int64?
    /// End of the origin-time range, ms. `nil`: up to now.
    public var end: Int64?
    public var minMagnitude: Double?
    public var maxMagnitude: Double?
    public var minDepth: Double?
    public var maxDepth: Double?
    /// A rectangle; one crossing the antimeridian is sent as the service wants it (east bound past 180).
    public var bbox: BoundingBox?
    public var circle: Circle?
    /// Event types (`earthquake`, `quarry blast`, …); empty: all.
    public var eventTypes: [String] = []
    /// An FDSN `catalog` name; `nil`: the preferred solutions.
    public var catalog: String?

    /// A circle: centre and radius in km.
    public struct Circle: Sendable, Hashable, Codable {
        public var latitude, longitude, radiusKm: Double

        public init(latitude: Double, longitude: Double, radiusKm: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.radiusKm = radiusKm
        }

        /// Parses `lat,lon,radiusKm`.
        public init(parsing text: String) throws {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 3, let a = parts[0], let b = parts[1], let c = parts[2] else {
                throw QuakeBakeError("\"\(text.prefix(80))\" is not lat,lon,radiusKm (three numbers)", exitStatus: .usage)
            }
            self.init(latitude: a, longitude: b, radiusKm: c)
        }

        /// What is wrong with the circle (`latitude 91 is outside -90…90`), if anything.
        var problem: String? {
            let n = Format.number
            if !(-90...90).contains(latitude) { return "latitude \(n(latitude)) is outside -90…90" }
            if !(-180...180).contains(longitude) { return "longitude \(n(longitude)) is outside -180…180" }
            if !(0...20_001.6).contains(radiusKm) { return "radius \(n(radiusKm)) km is outside 0…20001.6" }
            return nil
        }
    }

    public init() {}

    /// Checks the selection before any request is sent (each option's declared check, and the
    /// ranges against each other); the error names the flag and the problem.
    public func validate() throws {
        func fail(_ message: String) -> QuakeBakeError { QuakeBakeError(message, exitStatus: .usage) }
        if let start, let end, end < start {
            throw fail("--end \(ISOTime.format(milliseconds: end)) is before --start \(ISOTime.format(milliseconds: start))")
        }
        if let a = minMagnitude, let b = maxMagnitude, b < a {
            throw fail("--max-magnitude \(Format.number(b)) is less than --min-magnitude \(Format.number(a))")
        }
        if let a = minDepth, let b = maxDepth, b < a { throw fail("--max-depth \(Format.number(b)) is less than --min-depth \(Format.number(a))") }
        try OptionDeclaration.check(self, against: SelectionOption.all)
        try bbox?.validate()
    }

    /// The time range to plan over, resolved against `now` (ms).
    func timeRange(now: Int64) -> ClosedRange<Int64> {
        let end = self.end ?? now
        let start = self.start ?? (end - 30 * 86_400_000)
        return start...max(start, end)
    }

    /// The FDSN filter parameters other than time (in a fixed order).
    var filterParameters: [(String, String)] {
        var out: [(String, String)] = []
        let number = Format.number
        if let bbox {
            out.append(("minlatitude", number(bbox.south)))
            out.append(("maxlatitude", number(bbox.north)))
            out.append(("minlongitude", number(bbox.west)))
            // Across the antimeridian the service wants the east bound past 180 (170..190).
            out.append(("maxlongitude", number(bbox.crossesAntimeridian ? bbox.east + 360 : bbox.east)))
        }
        if let circle {
            out.append(("latitude", number(circle.latitude)))
            out.append(("longitude", number(circle.longitude)))
            out.append(("maxradiuskm", number(circle.radiusKm)))
        }
        if let v = minMagnitude { out.append(("minmagnitude", number(v))) }
        if let v = maxMagnitude { out.append(("maxmagnitude", number(v))) }
        if let v = minDepth { out.append(("mindepth", number(v))) }
        if let v = maxDepth { out.append(("maxdepth", number(v))) }
        if !eventTypes.isEmpty { out.append(("eventtype", eventTypes.joined(separator: ","))) }
        if let catalog { out.append(("catalog", catalog)) }
        return out
    }

    /// The selection's identity: two fetches with the same key sync incrementally.
    var identity: String {
        let data = (try? JSONEncoder.sorted.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys, for stable text.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

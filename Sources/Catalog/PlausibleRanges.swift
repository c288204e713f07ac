import Foundation

/// The values an event can physically have, enforced once, where events are read
/// (files and service pages alike, in `EventRules.check`).
///
/// A value outside these ranges is damage (a stored magnitude of 1e19 once made
/// every later export trap), so the event is refused with the reason and its raw
/// text kept in `rejects`: nothing is lost, and no later stage ever sees it.
public enum PlausibleRanges {
    /// 1500-01-01: the catalog's oldest events are from 1568.
    public static let earliestTime: Int64 = -14_831_769_600_000
    /// How far ahead of the clock a `time` or `updated` may be (clock skew between
    /// networks); beyond it a version would freeze the event against every later one.
    public static let futureAllowance: Int64 = 86_400_000
    /// Magnitudes: microseismic events reach about -2; nothing above 10 is physical.
    public static let magnitude: ClosedRange<Double> = -5...10
    /// Depth in km: -10 (above sea level, the catalog's floor) to 1,000 (the deepest
    /// known event is about 735 km; real solutions reach 790).
    public static let depthKm: ClosedRange<Double> = -10...1000
    /// Intensities (CDI, MMI) are on the 1–12 scale (0 when none).
    public static let intensity: ClosedRange<Double> = 0...12
    /// Azimuthal gap in degrees.
    public static let gap: ClosedRange<Double> = 0...360
    /// Counts (felt reports, stations, significance) and uncertainties are never negative.
    public static let nonNegative: ClosedRange<Double> = 0...1e12
    /// Time-zone offsets in minutes.
    public static let timeZoneMinutes: ClosedRange<Int> = -1440...1440

    /// Latest plausible `time` or `updated` for a read made now.
    public static var latestTime: Int64 { ReferenceClock.nowMilliseconds + futureAllowance }

    /// Why `event`'s values are not physical, or `nil` when they all are. (Checked field by
    /// field, in this order, without a list per event: every event of a file comes through here.)
    static func problem(with event: QuakeEvent) -> String? {
        let latest = latestTime
        func time(_ name: String, _ value: Int64?) -> String? {
            guard let value else { return nil }
            if value < earliestTime { return "\(name) \(describe(value)) is before 1500" }
            if value > latest { return "\(name) \(describe(value)) is more than a day in the future" }
            return nil
        }
        func within(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) -> String? {
            guard let value, !range.contains(value) else { return nil }
            return "\(name) \(value) is outside the plausible range \(range.lowerBound)…\(range.upperBound)"
        }
        func count(_ name: String, _ value: Int?) -> String? { within(name, value.map(Double.init), nonNegative) }
        if let problem = time("time", event.time) ?? time("updated", event.updated) { return problem }
        if let problem = within("mag", event.mag, magnitude) ?? within("depth", event.depthKm, depthKm)
            ?? within("cdi", event.cdi, intensity) ?? within("mmi", event.mmi, intensity) ?? within("gap", event.gap, gap) {
            return problem
        }
        if let problem = within("dmin", event.dmin, nonNegative) ?? within("rms", event.rms, nonNegative)
            ?? within("horizontalError", event.horizontalError, nonNegative) ?? within("depthError", event.depthError, nonNegative)
            ?? within("magError", event.magError, nonNegative) {
            return problem
        }
        if let problem = count("felt", event.felt) ?? count("nst", event.nst) ?? count("sig", event.sig)
            ?? count("tsunami", event.tsunami) ?? count("magNst", event.magNst) {
            return problem
        }
        if let tz = event.tz, !timeZoneMinutes.contains(tz) {
            return "tz \(tz) is outside \(timeZoneMinutes.lowerBound)…\(timeZoneMinutes.upperBound) minutes"
        }
        return nil
    }

    private static func describe(_ ms: Int64) -> String {
        (-62_135_596_800_000...253_402_300_799_999).contains(ms) ? ISOTime.format(milliseconds: ms) : "\(ms) ms"
    }
}

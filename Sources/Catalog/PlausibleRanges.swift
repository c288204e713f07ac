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

    /// Why `event`'s values are not physical, or `nil` when they all are.
    static func problem(with event: QuakeEvent) -> String? {
        let latest = latestTime
        for (name, value) in [("time", event.time), ("updated", Optional(event.updated))] {
            guard let value else { continue }
            if value < earliestTime { return "\(name) \(describe(value)) is before 1500" }
            if value > latest { return "\(name) \(describe(value)) is more than a day in the future" }
        }
        var checks: [(String, Double?, ClosedRange<Double>)] = [
            ("mag", event.mag, magnitude), ("depth", event.depthKm, depthKm),
            ("cdi", event.cdi, intensity), ("mmi", event.mmi, intensity), ("gap", event.gap, gap),
        ]
        for (name, value) in [("dmin", event.dmin), ("rms", event.rms), ("horizontalError", event.horizontalError),
                              ("depthError", event.depthError), ("magError", event.magError)] {
            checks.append((name, value, nonNegative))
        }
        for (name, value) in [("felt", event.felt), ("nst", event.nst), ("sig", event.sig), ("tsunami", event.tsunami),
                              ("magNst", event.magNst)] {
            checks.append((name, value.map(Double.init), nonNegative))
        }
        for (name, value, range) in checks {
            if let value, !range.contains(value) {
                return "\(name) \(value) is outside the plausible range \(range.lowerBound)…\(range.upperBound)"
            }
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

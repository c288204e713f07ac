import Foundation
import QuakeCatalog
import QuakeTiles

/// Writes `timeline.json`: event counts per UTC day and magnitude band over the
/// whole selection, for a history scrubber. Days without events are left out.
///
/// ```json
/// {"bands":["<2","2-3","3-4","4-5","5-6","6-7",">=7","unknown"],
///  "days":[["2024-01-01",[12,30,8,2,0,0,0,1]],…],"total":53}
/// ```
enum TimelineWriter {
    static let bandNames = ["<2", "2-3", "3-4", "4-5", "5-6", "6-7", ">=7", "unknown"]

    /// The band of a magnitude (NaN: unknown). Clamped before converting, so even a
    /// value the border would refuse today (a store written by an older version) cannot trap.
    static func band(_ magnitude: Double) -> Int {
        if magnitude.isNaN { return 7 }
        return Int(min(max(magnitude.rounded(.down) - 1, 0), 6))
    }

    static func json(_ table: EventTable) -> JSON {
        var counts: [Int64: [Int]] = [:]
        for i in 0..<table.count {
            table.releaseResident(scanning: i)
            let day = floorDiv(table.time[i], millisecondsPerDay)
            counts[day, default: Array(repeating: 0, count: bandNames.count)][band(table.magnitude[i])] += 1
        }
        let days = counts.keys.sorted().map { day -> JSON in
            .array([.string(String(ISOTime.format(milliseconds: max(day, Int64.min / millisecondsPerDay) * millisecondsPerDay).prefix(10))), .array(counts[day]!.map { .int($0) })])
        }
        return .object([("bands", .array(bandNames.map(JSON.string))), ("days", .array(days)), ("total", .int(table.count))])
    }

    private static let millisecondsPerDay: Int64 = 86_400_000

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

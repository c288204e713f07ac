import Foundation
import QuakeCatalog
import QuakeCommon

/// A time window with inclusive whole-second bounds, and how many events it is expected to match.
///
/// Neighbouring windows share their boundary second (the service's bounds are
/// inclusive and one-second precise), so an event exactly on a boundary is
/// fetched twice and never missed; the store keeps one copy.
struct PlannedWindow: Sendable, Hashable {
    var start: Int64
    var end: Int64
    /// The events the window is expected to match.
    var count: Int
    /// Whether `count` is the service's count of exactly this window, rather than
    /// a share of a wider window's count at that window's average rate.
    var counted: Bool
}

/// Plans windows under the service's cap with as few requests as it can.
///
/// One count of the whole range; when that is over the cap, the range is cut into
/// equal-time windows that would each hold `fill` of the cap if events came at the
/// range's average rate, and they are queried without counting each. A window where
/// the rate was higher answers `N matching events exceeds search limit`: one request,
/// and it tells the window's count, which is cut again the same way (`split`).
/// Counting every window before querying it costs a request per window: 53 requests
/// instead of 26 for the 440,420 events of 2022-03…2026-08 at a cap of 20,000 (BENCHMARKS.md, "fetch").
struct WindowPlanner: Sendable {
    /// The share of the cap a window is planned to hold: the rest is room for an uneven rate.
    static let fill = 0.9

    let client: ServiceClient
    /// Every parameter but the time bounds.
    let parameters: [(String, String)]

    /// The parameters of a request for `start...end`.
    func parameters(start: Int64, end: Int64) -> [(String, String)] {
        parameters + [("starttime", ISOTime.formatParameter(milliseconds: start)), ("endtime", ISOTime.formatParameter(milliseconds: end))]
    }

    /// Counts `range` and plans it. Returns the windows, the service's cap, the events the range
    /// matched, and why the plan is what it is.
    func plan(_ range: ClosedRange<Int64>) async throws -> (windows: [PlannedWindow], cap: Int, counted: Int, reason: String) {
        let start = Self.floorSecond(range.lowerBound), end = max(start + 1000, Self.ceilSecond(range.upperBound))
        let answer = try await count(start: start, end: end)
        let cap = answer.maxAllowed ?? 20_000
        let whole = PlannedWindow(start: start, end: end, count: answer.count, counted: true)
        guard whole.count > cap else {
            return (whole.count > 0 ? [whole] : [], cap, whole.count,
                    "\(Format.count(whole.count, "event")) counted, within the cap of \(Format.count(cap))")
        }
        let windows = try Self.split(whole, cap: cap)
        return (windows, cap, whole.count, "\(Format.count(whole.count, "event")) counted, over the cap of \(Format.count(cap)): "
                + "\(Format.count(windows.count, "window")) of equal time, about \(Format.count(windows[0].count)) events each at the average rate")
    }

    /// The count of `start...end` as the service answers it now.
    func count(start: Int64, end: Int64) async throws -> CountAnswer {
        try await client.count(parameters(start: start, end: end))
    }

    /// Cuts `window`, known to match `window.count` (over `cap`) events, into equal-time
    /// windows each expected to hold `fill` of the cap at the window's average rate.
    static func split(_ window: PlannedWindow, cap: Int) throws -> [PlannedWindow] {
        let parts = max(2, Int((Double(window.count) / (fill * Double(max(1, cap)))).rounded(.up)))
        let bounds = boundaries(window.start, window.end, parts: parts)
        guard bounds.count > 2 else {
            throw ServiceError.overCap(message: "\(window.count) events between \(ISOTime.format(milliseconds: window.start)) and "
                + "\(ISOTime.format(milliseconds: window.end)) exceed the cap of \(cap), and a window cannot be narrower than one second",
                matched: window.count)
        }
        let span = Double(window.end - window.start)
        return (0..<(bounds.count - 1)).map { i in
            let share = Double(bounds[i + 1] - bounds[i]) / span
            return PlannedWindow(start: bounds[i], end: bounds[i + 1], count: Int((Double(window.count) * share).rounded()), counted: false)
        }
    }

    /// `parts + 1` whole-second boundaries from `start` to `end`, without repeats.
    static func boundaries(_ start: Int64, _ end: Int64, parts: Int) -> [Int64] {
        var bounds: [Int64] = [start]
        for i in 1..<parts {
            let cut = floorSecond(start + (end - start) * Int64(i) / Int64(parts))
            if cut > bounds.last! && cut < end { bounds.append(cut) }
        }
        bounds.append(end)
        return bounds
    }

    static func floorSecond(_ ms: Int64) -> Int64 { ms - ((ms % 1000) + 1000) % 1000 }
    static func ceilSecond(_ ms: Int64) -> Int64 { floorSecond(ms) == ms ? ms : floorSecond(ms) + 1000 }
}

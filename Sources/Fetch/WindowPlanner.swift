import Foundation
import QuakeCatalog

/// A time window with inclusive whole-second bounds, and how many events it matched when counted.
///
/// Neighbouring windows share their boundary second (the service's bounds are
/// inclusive and one-second precise), so an event exactly on a boundary is
/// fetched twice and never missed; the store keeps one copy.
struct PlannedWindow: Sendable, Hashable {
    var start: Int64
    var end: Int64
    var count: Int
}

/// Plans windows that each match at most the service's cap, by counting:
/// a window over the cap is cut into k equal parts, k = ⌈count / cap⌉ + 1, each
/// counted and cut again if still over; then neighbouring parts are merged back
/// while their summed counts fit, so sparse stretches cost one query, not many.
/// Windows that matched nothing are not queried.
struct WindowPlanner: Sendable {
    let client: ServiceClient
    /// Every parameter but the time bounds.
    let parameters: [(String, String)]

    /// The parameters of a request for `start...end`.
    func parameters(start: Int64, end: Int64) -> [(String, String)] {
        parameters + [("starttime", ISOTime.formatParameter(milliseconds: start)), ("endtime", ISOTime.formatParameter(milliseconds: end))]
    }

    /// Counts `range` and plans it. Returns the windows and the service's cap.
    func plan(_ range: ClosedRange<Int64>) async throws -> (windows: [PlannedWindow], cap: Int) {
        let start = Self.floorSecond(range.lowerBound), end = max(start + 1000, Self.ceilSecond(range.upperBound))
        let answer = try await count(start: start, end: end)
        let cap = answer.maxAllowed ?? 20_000
        let whole = PlannedWindow(start: start, end: end, count: answer.count)
        let windows = whole.count > cap ? try await split(whole, cap: cap) : [whole]
        return (windows.filter { $0.count > 0 }, cap)
    }

    /// Cuts `window` (known to match `window.count` events) into windows at or under `cap`.
    func split(_ window: PlannedWindow, cap: Int) async throws -> [PlannedWindow] {
        let parts = window.count / max(1, cap) + 2
        let bounds = Self.boundaries(window.start, window.end, parts: parts)
        guard bounds.count > 2 else {
            throw ServiceError.overCap("\(window.count) events between \(ISOTime.format(milliseconds: window.start)) and "
                + "\(ISOTime.format(milliseconds: window.end)) exceed the cap of \(cap), and a window cannot be narrower than one second")
        }
        let counted = try await withThrowingTaskGroup(of: PlannedWindow.self) { group in
            for i in 0..<(bounds.count - 1) {
                let (a, b) = (bounds[i], bounds[i + 1])
                group.addTask { PlannedWindow(start: a, end: b, count: try await count(start: a, end: b).count) }
            }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.start < $1.start }
        }
        var fitting: [PlannedWindow] = []
        for part in counted {
            fitting += part.count > cap ? try await split(part, cap: cap) : [part]
        }
        // A window cut because it kept failing stays cut; one cut for its size is packed back together.
        return window.count <= cap ? fitting : Self.merge(fitting, cap: cap)
    }

    private func count(start: Int64, end: Int64) async throws -> CountAnswer {
        try await client.count(parameters(start: start, end: end))
    }

    /// Merges neighbours while their summed counts (an upper bound: boundary events count twice) fit under `cap`.
    static func merge(_ windows: [PlannedWindow], cap: Int) -> [PlannedWindow] {
        var merged: [PlannedWindow] = []
        for window in windows {
            if let last = merged.last, last.end == window.start, last.count + window.count <= cap {
                merged[merged.count - 1] = PlannedWindow(start: last.start, end: window.end, count: last.count + window.count)
            } else {
                merged.append(window)
            }
        }
        return merged
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

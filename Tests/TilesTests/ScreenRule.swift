import Foundation
import QuakeCatalog

/// The spacing thinning's promises recomputed from the events alone, with the textbook Web
/// Mercator formula and screen pixels of 512-pixel tiles (no QuakeTiles code).
enum ScreenRule {
    /// Where the square Web Mercator world ends.
    static let maximumLatitude = 85.0511287798066

    /// Screen position of `event` at `zoom`; a latitude beyond the world's edge is drawn on it.
    static func pixel(_ event: QuakeEvent, zoom: Int) -> (x: Double, y: Double) {
        let size = 512 * Double(1 << zoom)
        let lat = min(max(event.latitude!, -maximumLatitude), maximumLatitude) * .pi / 180
        return ((event.longitude! + 180) / 360 * size, (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * size)
    }

    /// Whether the map has room for `event` at its place (its latitude within ±85.0511°).
    static func isInsideTheWorld(_ event: QuakeEvent) -> Bool { abs(event.latitude!) < maximumLatitude }

    /// Magnitude descending, unknown last, ties by id ascending (bytes).
    static func sweepOrder(_ events: [QuakeEvent]) -> [Int] {
        events.indices.sorted { a, b in
            let ma = events[a].mag ?? -.infinity, mb = events[b].mag ?? -.infinity
            return ma != mb ? ma > mb : Array(events[a].id.utf8).lexicographicallyPrecedes(Array(events[b].id.utf8))
        }
    }

    /// The quakes of the map that are the biggest within 32 px of themselves at `zoom`: a
    /// biggest-first sweep over the events inside the world (those beyond it are drawn on its
    /// edge but are not the map's: they keep no quake of the map out). Every one must be drawn.
    static func maxima(_ events: [QuakeEvent], order: [Int], zoom: Int) -> [Int] {
        var kept = PixelBuckets(size: 32)
        var maxima: [Int] = []
        for e in order where isInsideTheWorld(events[e]) {
            let p = pixel(events[e], zoom: zoom)
            guard kept.nearest(p) > 32 else { continue }
            kept.insert(p)
            maxima.append(e)
        }
        return maxima
    }
}

/// Points in square buckets, to find the distance to the nearest one within a bucket's size.
struct PixelBuckets {
    let size: Double
    private var buckets: [[Int]: [(x: Double, y: Double)]] = [:]
    private(set) var count = 0

    init(size: Double) { self.size = size }

    mutating func insert(_ p: (x: Double, y: Double)) {
        buckets[[Int((p.x / size).rounded(.down)), Int((p.y / size).rounded(.down))], default: []].append(p)
        count += 1
    }

    /// The distance to the nearest point, or infinity when none is within `size`.
    func nearest(_ p: (x: Double, y: Double)) -> Double {
        let cx = Int((p.x / size).rounded(.down)), cy = Int((p.y / size).rounded(.down))
        var best = Double.infinity
        for gx in cx - 1...cx + 1 {
            for gy in cy - 1...cy + 1 {
                for q in buckets[[gx, gy]] ?? [] { best = min(best, hypot(q.x - p.x, q.y - p.y)) }
            }
        }
        return best <= size ? best : .infinity
    }
}

import Foundation
import QuakeCatalog

/// Events placed on the screen of one zoom (pixels of 512-pixel tiles, by `ReferenceMercator`)
/// in the order of issue 14.2's sweep: magnitude descending, unknown last, ties by id. Written
/// apart from `SpacingSweep`, to check what bundles draw.
struct ScreenSweep {
    /// The events, biggest first.
    let events: [QuakeEvent]
    private let pixels: [(x: Double, y: Double)]

    init(_ events: some Collection<QuakeEvent>, zoom: Int) {
        self.events = events.sorted { a, b in
            let ma = a.mag ?? -.infinity, mb = b.mag ?? -.infinity
            return ma != mb ? ma > mb : Array(a.id.utf8).lexicographicallyPrecedes(Array(b.id.utf8))
        }
        pixels = self.events.map { e in
            let p = ReferenceMercator.global(longitude: e.longitude!, latitude: e.latitude!, zoom: zoom)
            return (x: p.x / 8, y: p.y / 8)  // 4096 tile units are 512 pixels
        }
    }

    /// The events (positions in `events`) the sweep keeps: each with no kept event within 32 px.
    func biggestFirst() -> [Int] {
        var kept = Grid()
        var list: [Int] = []
        for i in events.indices where nearest(i, in: kept) > 32 {
            kept.add(i, pixels[i])
            list.append(i)
        }
        return list
    }

    /// The events (positions) farther than `radius` px from every one of `members`.
    func far(from members: [Int], radius: Double) -> [Int] {
        var grid = Grid()
        for i in members { grid.add(i, pixels[i]) }
        return events.indices.filter { nearest($0, in: grid) > radius }
    }

    /// Points in 32-px cells.
    private struct Grid {
        var cells: [[Int]: [Int]] = [:]
        mutating func add(_ i: Int, _ p: (x: Double, y: Double)) { cells[[Int(p.x / 32), Int(p.y / 32)], default: []].append(i) }
    }

    /// The distance from event `i` to the nearest point of `grid` within 32 px (infinity when none is).
    private func nearest(_ i: Int, in grid: Grid) -> Double {
        let (cx, cy) = (Int(pixels[i].x / 32), Int(pixels[i].y / 32))
        var best = Double.infinity
        for gx in cx - 1...cx + 1 {
            for gy in cy - 1...cy + 1 {
                for j in grid.cells[[gx, gy]] ?? [] { best = min(best, hypot(pixels[i].x - pixels[j].x, pixels[i].y - pixels[j].y)) }
            }
        }
        return best
    }
}

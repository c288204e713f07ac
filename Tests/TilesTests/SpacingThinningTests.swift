import Foundation
import QuakeCatalog
import QuakeTiles
import Testing

/// The default thinning (`spacing`) checked against its promises, recomputed here from the
/// events with the textbook Web Mercator formula and screen pixels of 512-pixel tiles.
@Suite struct SpacingThinningTests {
    static let events = ThinningTests.events
    static let maxZoom = 9
    static let thinning: Thinning = {
        var options = ThinningOptions()
        options.maxZoom = maxZoom
        return Thinning(points: PointSet(table: TilesFixture.table(events), buildTimeOrder: false), options: options)
    }()

    /// Screen position of event `e` at `zoom` in pixels of 512-pixel tiles.
    static func pixel(_ e: Int, zoom: Int) -> (x: Double, y: Double) {
        let event = events[e]
        let size = 512 * Double(1 << zoom)
        let lat = min(max(event.latitude!, -85.0511287798066), 85.0511287798066) * .pi / 180
        return ((event.longitude! + 180) / 360 * size, (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * size)
    }

    /// Events drawn at `zoom`.
    static func drawn(at zoom: Int) -> [Int] { thinning.minZoom.indices.filter { thinning.minZoom[$0] <= zoom } }

    @Test func theBiggestWithin32PixelsIsAlwaysDrawn() {
        // Magnitude descending, unknown last, ties by id ascending.
        let order = Self.events.indices.sorted { a, b in
            let ma = Self.events[a].mag ?? -.infinity, mb = Self.events[b].mag ?? -.infinity
            return ma != mb ? ma > mb : Array(Self.events[a].id.utf8).lexicographicallyPrecedes(Array(Self.events[b].id.utf8))
        }
        for zoom in 0..<Self.maxZoom {
            var kept = PixelBuckets(size: 32)
            var missed: [String] = []
            for e in order {
                let p = Self.pixel(e, zoom: zoom)
                guard kept.nearest(p) > 32 else { continue }
                kept.insert(p)
                if Self.thinning.minZoom[e] > zoom { missed.append(Self.events[e].id) }
            }
            #expect(missed.isEmpty, "zoom \(zoom): \(missed.count) of \(kept.count) kept by the sweep are not drawn, e.g. \(missed.prefix(3))")
            #expect(kept.count > 0)
        }
    }

    @Test func everyEventIsWithin12PixelsOfADrawnQuake() {
        for zoom in 0..<Self.maxZoom {
            var drawn = PixelBuckets(size: 32)
            for e in Self.drawn(at: zoom) { drawn.insert(Self.pixel(e, zoom: zoom)) }
            let far = Self.events.indices.filter { drawn.nearest(Self.pixel($0, zoom: zoom)) > 12.001 }
            #expect(far.isEmpty, "zoom \(zoom): \(far.count) events farther than 12 px from a drawn quake")
        }
    }

    @Test func noZoomDrawsMoreThanThreeTimesTheOneBelow() {
        let counts = (0...Self.maxZoom).map { Self.drawn(at: $0).count }
        #expect(counts.last == Self.events.count, "the maximum zoom draws every event")
        for zoom in 1...Self.maxZoom {
            #expect(counts[zoom] <= 3 * counts[zoom - 1], "zoom \(zoom): \(counts[zoom]) after \(counts[zoom - 1])")
        }
        #expect(counts[0] < counts[Self.maxZoom - 1], "lower zooms draw fewer: \(counts)")
    }

    @Test func aTileTooFullKeepsWhatLowerZoomsDraw() {
        var options = ThinningOptions()
        options.maxZoom = 6
        options.maxTileFeatures = 300
        let points = PointSet(table: TilesFixture.table(Self.events), buildTimeOrder: false)
        let thinning = Thinning(points: points, options: options)
        #expect(!thinning.actions.isEmpty)
        for zoom in 0...options.maxZoom {
            for run in TileRun.all(points: points, zoom: zoom) {
                let content = TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options)
                #expect((content?.featureCount ?? 0) <= 300, "tile \(run.key)")
            }
        }
        // What a zoom draws is drawn deeper: a cut moves an event deeper or, at the maximum zoom, into the clusters only.
        let cut = thinning.minZoom.filter { $0 == Thinning.never }.count
        #expect(cut > 0 && thinning.minZoom.allSatisfy { $0 <= 6 || $0 == Thinning.never })
    }
}

/// Points in square buckets, to find the distance to the nearest one within a bucket's size.
private struct PixelBuckets {
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

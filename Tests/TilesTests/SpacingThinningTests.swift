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
    static func pixel(_ e: Int, zoom: Int) -> (x: Double, y: Double) { ScreenRule.pixel(events[e], zoom: zoom) }

    /// Events drawn at `zoom`.
    static func drawn(at zoom: Int) -> [Int] { thinning.minZoom.indices.filter { thinning.minZoom[$0] <= zoom } }

    @Test func theBiggestWithin32PixelsIsAlwaysDrawn() {
        let order = ScreenRule.sweepOrder(Self.events)
        for zoom in 0..<Self.maxZoom {
            let maxima = ScreenRule.maxima(Self.events, order: order, zoom: zoom)
            let missed = maxima.filter { Self.thinning.minZoom[$0] > zoom }.map { Self.events[$0].id }
            #expect(missed.isEmpty, "zoom \(zoom): \(missed.count) of \(maxima.count) kept by the sweep are not drawn, e.g. \(missed.prefix(3))")
            #expect(!maxima.isEmpty)
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

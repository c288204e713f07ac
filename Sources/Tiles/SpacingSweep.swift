/// The spacing thinning (the default): each zoom draws the biggest quakes of every
/// neighbourhood and enough others that every place with quakes shows.
///
/// Zooms are decided from the lowest upwards and each one keeps what the zoom below drew,
/// so a quake shown at zoom z is shown at every deeper zoom (nesting). Distances are in
/// screen pixels of 512-pixel tiles, the size MapLibre draws vector tiles at. At each zoom
/// below the maximum, among the events its floors and stride leave (`eligibleFrom`):
///
/// 1. **Biggest first.** Sweeping the events biggest first (magnitude descending, unknown
///    last, ties by id), each one with no event kept by this sweep within 32 px is drawn.
///    Every event that is the biggest within 32 px of itself is among them.
/// 2. **Cover.** In the same order, each event with no drawn quake within 12 px is drawn,
///    so every event lies within 12 px of a drawn quake: where quakes happen shows.
/// 3. **No cliff.** The maximum zoom draws every event; so that no zoom draws more than
///    three times what the one below it draws, a zoom draws at least N / 3^(max − z) of
///    the N events. When steps 1 and 2 draw fewer, the cover is swept again at half the
///    radius, then a quarter…, stopping at that count: the next biggest of the emptiest
///    places first.
///
/// Measured on the real 440k catalog (BENCHMARKS.md, "thinning"): p95 of the distance
/// from an event to the nearest drawn quake well under 16 px at every zoom.
enum SpacingSweep {
    /// Radius of the biggest-first sweep, in screen pixels.
    static let biggestRadius: Int64 = 32
    /// Radius of the cover sweep, in screen pixels.
    static let coverRadius: Int64 = 12
    /// Largest growth of the drawn count from one zoom to the next.
    static let growth = 3

    /// What the sweeps decided.
    struct Result {
        /// The first zoom at which each event is drawn (`maxZoom` for those only the maximum zoom draws).
        var minZoom: [UInt8]
        /// Per event, bit z is set when the biggest-first sweep of zoom z keeps it: what the
        /// size guard cuts last.
        var biggestAt: [UInt32]
    }

    /// Sweeps every zoom from `options.minZoom` to `options.maxZoom`.
    static func run(points: PointSet, eligibleFrom: [UInt8], options: ThinningOptions) -> Result {
        let maxZoom = options.maxZoom
        var minZoom = [UInt8](repeating: UInt8(maxZoom), count: points.count)
        var biggestAt = [UInt32](repeating: 0, count: points.count)
        let order = points.bySize, worldX = points.worldX, worldY = points.worldY
        var drawn = 0
        for zoom in options.minZoom...maxZoom {
            let z = UInt8(zoom)
            // World units per screen pixel: the world is 512 · 2^z pixels and 2^32 units across.
            let pixel = Int64(1) << (23 - zoom)

            var biggest = NeighbourGrid(radius: biggestRadius * pixel, expected: drawn)
            var eligible = 0
            for event in order where eligibleFrom[Int(event)] <= z {
                let e = Int(event)
                eligible += 1
                guard !biggest.hasPoint(near: worldX[e], worldY[e]) else { continue }
                biggest.insert(x: worldX[e], y: worldY[e])
                biggestAt[e] |= 1 << zoom
                if minZoom[e] > z {
                    minZoom[e] = z
                    drawn += 1
                }
            }

            if zoom == maxZoom { break }  // it draws every event
            let target = min(eligible, needed(total: points.count, zoom: zoom, maxZoom: maxZoom))
            var radius = coverRadius * pixel
            var firstPass = true
            while radius > 0 && (firstPass || drawn < target) {
                var cover = NeighbourGrid(radius: radius, expected: 2 * drawn)
                for event in order where minZoom[Int(event)] <= z {
                    cover.insert(x: worldX[Int(event)], y: worldY[Int(event)])
                }
                for event in order where eligibleFrom[Int(event)] <= z && minZoom[Int(event)] > z {
                    if !firstPass && drawn >= target { break }
                    let e = Int(event)
                    guard !cover.hasPoint(near: worldX[e], worldY[e]) else { continue }
                    cover.insert(x: worldX[e], y: worldY[e])
                    minZoom[e] = z
                    drawn += 1
                }
                firstPass = false
                radius /= 2
            }
            // Events at one spot are not told apart by any radius: the biggest of them come next.
            for event in order where drawn < target && eligibleFrom[Int(event)] <= z && minZoom[Int(event)] > z {
                minZoom[Int(event)] = z
                drawn += 1
            }
        }
        return Result(minZoom: minZoom, biggestAt: biggestAt)
    }

    /// The fewest events zoom `zoom` draws so that the maximum zoom's `total` is reached in steps of at most `growth`.
    static func needed(total: Int, zoom: Int, maxZoom: Int) -> Int {
        var n = total
        for _ in zoom..<maxZoom { n = (n + growth - 1) / growth }
        return n
    }
}

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
///    Every event that is the biggest within 32 px of itself is among them. The world ends at
///    ±85.0511°: a quake beyond is drawn on the edge, but the rule is the map's, so such a
///    quake keeps no quake inside the world out (it is only kept out itself, by anything kept
///    near its place on the edge). When some events
///    are drawn apart from the tiles at every zoom (the recent layer: the point set holds the
///    others), the sweep is judged over the whole selection: each held event kept by the sweep
///    of the held events alone or by the sweep of all is drawn (`wholeSelectionMaxima` are the
///    latter alone), so the rule holds for the map as drawn, and holds for the tiles alone too.
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
        /// The held events (and zooms, bit z) that only the sweep over the whole selection keeps.
        var wholeSelectionMaxima: [Maximum]
    }

    typealias Maximum = Thinning.Maximum

    /// Sweeps every zoom from `options.minZoom` to `options.maxZoom`, given the biggest-first
    /// sweeps of the same points and options (which hold the events' first eligible zooms).
    static func run(points: PointSet, options: ThinningOptions, biggestFirst biggest: BiggestFirst) -> Result {
        let maxZoom = options.maxZoom
        let order = points.bySize
        let n = order.count
        let xs = biggest.xs, ys = biggest.ys, eligible = biggest.eligible, kept = biggest.kept
        var first = [UInt8](repeating: UInt8(maxZoom), count: n)
        var biggestAt = [UInt32](repeating: 0, count: n)
        let zooms = Array(options.minZoom...maxZoom)
        var drawn = 0
        for (k, zoom) in zooms.enumerated() {
            let z = UInt8(zoom)
            for i in kept[k] {
                biggestAt[Int(i)] |= 1 << zoom
                if first[Int(i)] > z {
                    first[Int(i)] = z
                    drawn += 1
                }
            }
            if zoom == maxZoom { break }  // it draws every event
            let eligibleCount = eligible.reduce(0) { $0 + ($1 <= z ? 1 : 0) }
            // World units per screen pixel: the world is 512 · 2^z pixels and 2^32 units across.
            let pixel = Int64(1) << (23 - zoom)

            let target = min(eligibleCount, needed(total: n, zoom: zoom, maxZoom: maxZoom))
            var radius = coverRadius * pixel
            var firstPass = true
            while radius > 0 && (firstPass || drawn < target) {
                var cover = NeighbourGrid(radius: radius, expected: 2 * drawn)
                for i in 0..<n where first[i] <= z { cover.insert(x: xs[i], y: ys[i]) }
                for i in 0..<n where eligible[i] <= z && first[i] > z {
                    if !firstPass && drawn >= target { break }
                    guard !cover.hasPoint(near: xs[i], ys[i]) else { continue }
                    cover.insert(x: xs[i], y: ys[i])
                    first[i] = z
                    drawn += 1
                }
                firstPass = false
                radius /= 2
            }
            // Events at one spot are not told apart by any radius: the biggest of them come next.
            var i = 0
            while drawn < target && i < n {
                if eligible[i] <= z && first[i] > z {
                    first[i] = z
                    drawn += 1
                }
                i += 1
            }
        }
        // Events the point set does not hold keep the maximum zoom (the caller draws them otherwise).
        var result = Result(minZoom: [UInt8](repeating: UInt8(maxZoom), count: points.count),
                            biggestAt: [UInt32](repeating: 0, count: points.count), wholeSelectionMaxima: biggest.maxima)
        for (i, event) in order.enumerated() {
            result.minZoom[Int(event)] = first[i]
            result.biggestAt[Int(event)] = biggestAt[i]
        }
        return result
    }

    /// The biggest-first sweeps of every zoom, which depend neither on one another nor on what
    /// is drawn. (Run concurrently they were slower: the export's app database has the other
    /// core by then.) An export whose tiles' events are all as before makes them alone first,
    /// to compare their `maxima` with the previous export's and know whether its thinning
    /// still holds.
    struct BiggestFirst: Sendable {
        /// The held events' positions and first eligible zooms in sweep order (`PointSet.bySize`),
        /// so that each sweep reads memory in sequence; the rest of the thinning reads them too.
        let xs: [UInt32]
        let ys: [UInt32]
        let eligible: [UInt8]
        /// Per zoom from `options.minZoom`, the positions (in sweep order) of the held events kept.
        let kept: [[UInt32]]
        /// The held events that only the sweeps over the whole selection keep (see `Maximum`).
        let maxima: [Maximum]

        init(points: PointSet, eligibleFrom: [UInt8], options: ThinningOptions) {
            let order = points.bySize
            let xs = order.map { points.worldX[Int($0)] }, ys = order.map { points.worldY[Int($0)] }
            let eligible = order.map { eligibleFrom[Int($0)] }
            let zooms = Array(options.minZoom...options.maxZoom)
            if points.apartBySize.isEmpty {
                kept = zooms.map { SpacingSweep.biggestFirst(xs: xs, ys: ys, eligible: eligible, zoom: $0) }
                maxima = []
            } else {
                let sweeps = zooms.map { SpacingSweep.biggestFirst(xs: xs, ys: ys, eligible: eligible, apart: points, zoom: $0) }
                kept = sweeps.map(\.kept)
                maxima = SpacingSweep.maxima(sweeps.map(\.wholeOnly), zooms: zooms, order: order)
            }
            (self.xs, self.ys, self.eligible) = (xs, ys, eligible)
            points.spill?.releaseResident()  // the sweeps read the copies, not the point set's positions
        }
    }

    /// Per-zoom lists of positions in sweep order as `Maximum`s, by event number.
    private static func maxima(_ positions: [[UInt32]], zooms: [Int], order: [UInt32]) -> [Maximum] {
        var bits: [Int: UInt32] = [:]
        for (k, zoom) in zooms.enumerated() {
            for i in positions[k] { bits[Int(order[Int(i)]), default: 0] |= 1 << zoom }
        }
        return bits.keys.sorted().map { Maximum(event: $0, zooms: bits[$0]!) }
    }

    /// Both biggest-first sweeps of `zoom` at once, the held events' (`xs`, `ys`, `eligible`, in
    /// sweep order) and the whole selection's, with the events apart from `points` placed among
    /// them (`apartAfter`): the held events (positions in sweep order) kept by either, and those
    /// the whole selection's alone keeps. An event apart is drawn at every zoom: it is in every
    /// sweep of the whole.
    private static func biggestFirst(xs: [UInt32], ys: [UInt32], eligible: [UInt8], apart points: PointSet,
                                     zoom: Int) -> (kept: [UInt32], wholeOnly: [UInt32]) {
        let z = UInt8(zoom)
        // One grid for both sweeps (they keep mostly the same events): tag 1 for what the held
        // events' sweep keeps, 2 for what the whole selection's keeps.
        let held: UInt8 = 1, whole: UInt8 = 2, both = held | whole
        var sweep = Sweep(zoom: zoom)
        var kept: [UInt32] = [], wholeOnly: [UInt32] = []
        let apart = points.apartBySize, apartAfter = points.apartAfter
        var next = 0  // the next event apart
        for p in 0...xs.count {
            while next < apart.count && apartAfter[next] == p {
                let x = points.worldX[Int(apart[next])], y = points.worldY[Int(apart[next])]
                if sweep.tags(near: x, y, all: whole) == 0 { sweep.insert(x: x, y: y, tags: whole) }
                next += 1
            }
            guard p < xs.count, eligible[p] <= z else { continue }
            let x = xs[p], y = ys[p]
            let keptBy = both & ~sweep.tags(near: x, y, all: both)
            guard keptBy != 0 else { continue }
            sweep.insert(x: x, y: y, tags: keptBy)
            kept.append(UInt32(p))
            if keptBy == whole { wholeOnly.append(UInt32(p)) }
        }
        return (kept, wholeOnly)
    }

    /// The events (positions in sweep order) that the biggest-first sweep of `zoom` keeps.
    private static func biggestFirst(xs: [UInt32], ys: [UInt32], eligible: [UInt8], zoom: Int) -> [UInt32] {
        let z = UInt8(zoom)
        var sweep = Sweep(zoom: zoom)
        var kept: [UInt32] = []
        for i in 0..<xs.count where eligible[i] <= z && sweep.tags(near: xs[i], ys[i], all: 1) == 0 {
            sweep.insert(x: xs[i], y: ys[i], tags: 1)
            kept.append(UInt32(i))
        }
        return kept
    }

    /// What a biggest-first sweep of one zoom has kept, to ask what is kept within 32 px of a
    /// place: the quakes inside the world in one grid, those on its polar edges (at or beyond
    /// ±85.0511°, see `WebMercator.isOnPolarEdge`) in another that only a place on the edge
    /// looks into. A quake drawn on the edge stands for one beyond the map, so it keeps no
    /// quake of the map out: `us7000q1ig` (M5.1, 85.0258° N) was left out at zoom 0 for an
    /// M5.1 at 85.40° N drawn 7 px away on the edge. Few quakes are beyond: the second grid
    /// stays small and a place inside asks one grid, as before.
    private struct Sweep {
        private var inside: NeighbourGrid
        private var edge: NeighbourGrid

        init(zoom: Int) {
            let radius = biggestRadius * (Int64(1) << (23 - zoom))
            inside = NeighbourGrid(radius: radius, expected: 1024)
            edge = NeighbourGrid(radius: radius, expected: 16)
        }

        /// The tags (of `all`) of what is kept within 32 px of (x, y) and may keep a quake there out.
        func tags(near x: UInt32, _ y: UInt32, all: UInt8) -> UInt8 {
            let found = inside.tags(near: x, y, all: all)
            guard found != all, WebMercator.isOnPolarEdge(worldY: y) else { return found }
            return found | edge.tags(near: x, y, all: all)
        }

        mutating func insert(x: UInt32, y: UInt32, tags: UInt8) {
            if WebMercator.isOnPolarEdge(worldY: y) { edge.insert(x: x, y: y, tags: tags) } else { inside.insert(x: x, y: y, tags: tags) }
        }
    }

    /// The fewest events zoom `zoom` draws so that the maximum zoom's `total` is reached in steps of at most `growth`.
    static func needed(total: Int, zoom: Int, maxZoom: Int) -> Int {
        var n = total
        for _ in zoom..<maxZoom { n = (n + growth - 1) / growth }
        return n
    }
}

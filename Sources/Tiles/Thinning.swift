import QuakeCommon

/// Which events each zoom shows: every event's first zoom (`minzoom`).
///
/// A quake shown at zoom z is shown at every higher zoom (nesting), so one number per
/// event says where it appears:
///
/// 1. At the maximum zoom every selected event is shown.
/// 2. Below it, the events that may be shown (eligible) are, from the maximum zoom down,
///    those eligible one zoom deeper that pass the magnitude floor of the zoom
///    (`--magnitude-floor`), then every Nth of those in time order (`--stride`).
/// 3. The method (`--thinning`) chooses among them:
///    - `spacing` (the default), zoom by zoom upwards: the biggest quake of every
///      32-pixel neighbourhood, and enough others that every eligible event is within
///      12 pixels of a drawn one (see `SpacingSweep`);
///    - `grid`, zoom by zoom downwards: the N most important candidates of each grid
///      cell (`--cell-size`, `--per-cell`): biggest magnitude, then newest, then smallest id.
///      Because a zoom's cells split into four cells one zoom deeper, choosing among the
///      deeper zoom's survivors gives exactly the N most important of each cell among all
///      events that pass the floor;
///    - `none`: every eligible event.
/// 4. The tile-size guard: a tile with more features than allowed, or one the encoder
///    found too big (`byteLimits`), keeps only its most important events; the others move
///    one zoom deeper (or, at the maximum zoom, are shown only in clusters). Each such cut
///    is reported as a `GuardAction`.
public struct Thinning: Sendable {
    /// First zoom per event. `Thinning.never` for events cut by the size guard at the maximum zoom.
    public let minZoom: [UInt8]
    /// The size-guard cuts, ordered by zoom (deepest first) and tile.
    public let actions: [GuardAction]

    /// With events apart from the point set (the recent layer), the held events that only the
    /// biggest-first sweep over the whole selection keeps (see `SpacingSweep`): they depend on
    /// the events apart, so an export that takes an earlier thinning over checks them first.
    /// Empty otherwise, and for the grid and none methods.
    public let wholeSelectionMaxima: [Maximum]

    /// A held event that the biggest-first sweep over the whole selection keeps and the sweep over
    /// the held events alone does not, and the zooms (bit z) where it does.
    public struct Maximum: Hashable, Sendable {
        /// The event's number in the table.
        public let event: Int
        /// Bit z set when the sweep of zoom z keeps it.
        public let zooms: UInt32
    }

    /// The `minZoom` of an event no zoom shows.
    public static let never = UInt8.max

    /// A cut made by the tile-size guard.
    public struct GuardAction: Hashable, Sendable {
        /// The tile that was cut.
        public let tile: TileKey
        /// Events the tile would have shown.
        public let events: Int
        /// Events it shows.
        public let kept: Int
        /// Whether the feature count or the compressed size forced the cut.
        public let reason: Reason

        /// The limit that was hit.
        public enum Reason: String, Sendable { case features, bytes }

        public init(tile: TileKey, events: Int, kept: Int, reason: Reason) {
            self.tile = tile
            self.events = events
            self.kept = kept
            self.reason = reason
        }
    }

    /// What the spacing method chose before the size guard. The guard's byte limits change
    /// from one pass of an export to the next, the choice does not: a later pass reuses it.
    /// `nil` for the grid and none methods, whose guard works inside the choosing.
    public let choice: Choice?

    /// The spacing sweep's result, opaque.
    public struct Choice: Sendable {
        fileprivate let sweep: SpacingSweep.Result
    }

    /// Thins `points`. `byteLimits` caps the events of tiles the encoder found too big;
    /// `choice` is that of an earlier thinning of the same points and options; `biggestFirst`,
    /// the spacing method's sweeps of them made before.
    public init(points: PointSet, options: ThinningOptions, byteLimits: [TileKey: Int] = [:], reusing choice: Choice? = nil,
                biggestFirst: BiggestFirst? = nil) {
        var minZoom = [UInt8](repeating: UInt8(options.maxZoom), count: points.count)
        var actions: [GuardAction] = []
        switch options.method {
        case .spacing:
            let sweep = choice?.sweep ?? SpacingSweep.run(points: points, options: options,
                                                          biggestFirst: biggestFirst?.sweeps ?? BiggestFirst(points: points, options: options).sweeps)
            self.choice = Choice(sweep: sweep)
            wholeSelectionMaxima = sweep.wholeSelectionMaxima
            minZoom = sweep.minZoom
            // Upwards, so what a tile too full passes one zoom deeper is counted there.
            var cuts: [[GuardAction]] = []
            for zoom in options.minZoom...options.maxZoom {
                var cut: [GuardAction] = []
                Self.guardTiles(zoom: zoom, points: points, options: options, byteLimits: byteLimits,
                                biggestAt: sweep.biggestAt, minZoom: &minZoom, actions: &cut)
                cuts.append(cut)
                points.spill?.releaseResident()  // the zoom's pass over the codes and positions
            }
            actions = cuts.reversed().flatMap { $0 }
        case .grid, .none:
            self.choice = nil
            wholeSelectionMaxima = []
            Self.guardTiles(zoom: options.maxZoom, points: points, options: options, byteLimits: byteLimits,
                            minZoom: &minZoom, actions: &actions)
            for zoom in stride(from: options.maxZoom - 1, through: options.minZoom, by: -1) {
                let candidate = Self.candidates(zoom: zoom, points: points, options: options, minZoom: minZoom)
                Self.pickPerCell(zoom: zoom, points: points, options: options, candidate: candidate, minZoom: &minZoom)
                Self.guardTiles(zoom: zoom, points: points, options: options, byteLimits: byteLimits,
                                minZoom: &minZoom, actions: &actions)
            }
        }
        self.minZoom = minZoom
        self.actions = actions
    }

    /// This thinning with `events` drawn at every zoom from `zoom` on: events its point set
    /// did not hold, which the bundle draws apart from the tiles (the recent layer).
    public func drawing(_ events: [Int], from zoom: Int) -> Thinning {
        var minZoom = minZoom
        for e in events { minZoom[e] = UInt8(zoom) }
        return Thinning(minZoom: minZoom, actions: actions, wholeSelectionMaxima: wholeSelectionMaxima, choice: choice)
    }

    /// A thinning made before (an earlier export's, of the same points and options, whose
    /// `wholeSelectionMaxima` were those given).
    public init(minZoom: [UInt8], actions: [GuardAction], wholeSelectionMaxima: [Maximum]) {
        self.init(minZoom: minZoom, actions: actions, wholeSelectionMaxima: wholeSelectionMaxima, choice: nil)
    }

    private init(minZoom: [UInt8], actions: [GuardAction], wholeSelectionMaxima: [Maximum], choice: Choice?) {
        self.minZoom = minZoom
        self.actions = actions
        self.wholeSelectionMaxima = wholeSelectionMaxima
        self.choice = choice
    }

    /// The spacing method's biggest-first sweeps, made before the thinning (see `SpacingSweep`):
    /// their `wholeSelectionMaxima` are the thinning's, and a thinning given them does not sweep again.
    public struct BiggestFirst: Sendable {
        fileprivate let sweeps: SpacingSweep.BiggestFirst

        /// The sweeps of `points` under `options` (whose method is `spacing`).
        public init(points: PointSet, options: ThinningOptions) {
            precondition(options.method == .spacing, "only the spacing method sweeps biggest first")
            sweeps = SpacingSweep.BiggestFirst(points: points, eligibleFrom: Thinning.eligibleFrom(points: points, options: options), options: options)
        }

        /// The `wholeSelectionMaxima` of a thinning of the same points and options.
        public var wholeSelectionMaxima: [Maximum] { sweeps.maxima }
    }

    /// The spacing method's first zoom each event may be shown at: from the maximum zoom down,
    /// those eligible one zoom deeper that pass the zoom's floor and stride.
    fileprivate static func eligibleFrom(points: PointSet, options: ThinningOptions) -> [UInt8] {
        var minZoom = [UInt8](repeating: UInt8(options.maxZoom), count: points.count)
        for zoom in stride(from: options.maxZoom - 1, through: options.minZoom, by: -1) {
            let candidate = Self.candidates(zoom: zoom, points: points, options: options, minZoom: minZoom)
            for e in 0..<points.count where candidate[e] { minZoom[e] = UInt8(zoom) }
        }
        return minZoom
    }

    /// Events that may be shown at `zoom`: shown one zoom deeper, above the floor, on the stride.
    private static func candidates(zoom: Int, points: PointSet, options: ThinningOptions, minZoom: [UInt8]) -> [Bool] {
        let deeper = UInt8(zoom + 1)
        let floor = options.magnitudeFloors.floor(at: zoom)
        var candidate = [Bool](repeating: false, count: points.count)
        for e in 0..<points.count where minZoom[e] <= deeper {
            if let floor, !(points.magnitude[e] >= floor) { continue }
            candidate[e] = true
        }
        if options.stride > 1 {
            var position = 0
            for event in points.timeOrder where candidate[Int(event)] {
                if position % options.stride != 0 { candidate[Int(event)] = false }
                position += 1
            }
        }
        return candidate
    }

    /// The grid: in each cell, the `perCell` candidates of best rank are shown from `zoom` on.
    private static func pickPerCell(zoom: Int, points: PointSet, options: ThinningOptions, candidate: [Bool],
                                    minZoom: inout [UInt8]) {
        let z = UInt8(zoom)
        guard options.method == .grid else {
            for e in 0..<points.count where candidate[e] { minZoom[e] = z }
            return
        }
        let level = zoom + options.cellBits
        let order = points.order, morton = points.morton, rank = points.rank
        var scratch: [(rank: UInt32, event: UInt32)] = []
        var start = 0
        while start < order.count {
            let cell = Morton.prefix(morton[start], level: level)
            var end = start + 1
            while end < order.count && Morton.prefix(morton[end], level: level) == cell { end += 1 }
            if options.perCell == 1 {
                var best: UInt32 = .max, bestEvent = -1
                for i in start..<end {
                    let e = Int(order[i])
                    if candidate[e] && rank[e] < best { best = rank[e]; bestEvent = e }
                }
                if bestEvent >= 0 { minZoom[bestEvent] = z }
            } else {
                scratch.removeAll(keepingCapacity: true)
                for i in start..<end where candidate[Int(order[i])] {
                    let e = order[i]
                    scratch.append((rank[Int(e)], e))
                }
                if scratch.count > options.perCell { scratch.sort { $0.rank < $1.rank } }
                for pick in scratch.prefix(options.perCell) { minZoom[Int(pick.event)] = z }
            }
            start = end
        }
    }

    /// The size guard at `zoom`: tiles over the feature limit or with a byte limit keep their best
    /// events: first those a lower zoom shows (so what a zoom shows stays shown deeper), then those
    /// the biggest-first sweep of the zoom keeps (`biggestAt`, bit `zoom`), then by rank.
    private static func guardTiles(zoom: Int, points: PointSet, options: ThinningOptions, byteLimits: [TileKey: Int],
                                   biggestAt: [UInt32] = [], minZoom: inout [UInt8], actions: inout [GuardAction]) {
        let z = UInt8(zoom)
        let demoted = zoom == options.maxZoom ? never : UInt8(zoom + 1)
        let cellLevel = zoom + options.cellBits
        let order = points.order, morton = points.morton, rank = points.rank
        var start = 0
        while start < order.count {
            let tile = Morton.prefix(morton[start], level: zoom)
            let end = TileRun.runEnd(morton, from: start) { Morton.prefix($0, level: zoom) == tile }
            let first = Int(order[start])
            let key = TileKey(z: zoom, x: WebMercator.tileIndex(points.worldX[first], zoom: zoom),
                              y: WebMercator.tileIndex(points.worldY[first], zoom: zoom))
            let byteLimit = byteLimits.isEmpty ? nil : byteLimits[key]
            // Events and clusters together number at most twice the events: most tiles need no count.
            if byteLimit == nil && 2 * (end - start) <= options.maxTileFeatures {
                start = end
                continue
            }
            var shown = 0, cells = 1
            for i in start..<end {
                if minZoom[Int(order[i])] <= z { shown += 1 }
                if i > start && Morton.prefix(morton[i], level: cellLevel) != Morton.prefix(morton[i - 1], level: cellLevel) { cells += 1 }
            }
            var limit = options.maxTileFeatures - (options.clusters ? cells : 0)
            var reason = GuardAction.Reason.features
            if let cap = byteLimit, cap < limit {
                limit = cap
                reason = .bytes
            }
            if shown > limit {
                var visible: [(priority: UInt64, event: UInt32)] = []
                visible.reserveCapacity(shown)
                for i in start..<end where minZoom[Int(order[i])] <= z {
                    let e = Int(order[i])
                    let fresh: UInt64 = minZoom[e] == z ? 2 : 0
                    let ordinary: UInt64 = biggestAt.isEmpty || biggestAt[e] & (1 << zoom) == 0 ? 1 : 0
                    visible.append(((fresh | ordinary) << 32 | UInt64(rank[e]), order[i]))
                }
                visible.sort { $0.priority < $1.priority }
                for cut in visible[limit...] { minZoom[Int(cut.event)] = demoted }
                actions.append(GuardAction(tile: key, events: shown, kept: limit, reason: reason))
            }
            start = end
        }
    }
}

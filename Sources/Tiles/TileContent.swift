import QuakeCommon

/// The events of one tile at one zoom: a contiguous run of `PointSet.order`.
public struct TileRun: Sendable {
    /// The tile.
    public let key: TileKey
    /// Positions in `PointSet.order` (and `PointSet.morton`).
    public let range: Range<Int>

    /// The runs of every tile holding at least one event at `zoom`, in Morton order.
    public static func all(points: PointSet, zoom: Int) -> [TileRun] {
        var runs: [TileRun] = []
        let morton = points.morton
        var start = 0
        while start < morton.count {
            let tile = Morton.prefix(morton[start], level: zoom)
            let end = runEnd(morton, from: start) { Morton.prefix($0, level: zoom) == tile }
            let first = Int(points.order[start])
            let key = TileKey(z: zoom, x: WebMercator.tileIndex(points.worldX[first], zoom: zoom),
                              y: WebMercator.tileIndex(points.worldY[first], zoom: zoom))
            runs.append(TileRun(key: key, range: start..<end))
            start = end
        }
        return runs
    }

    /// The end of the run of codes from `start` for which `inRun` holds (the codes are sorted and
    /// the run is a prefix of what follows): found by galloping, in steps of 1, 2, 4, … then
    /// halving, so a zoom of few tiles costs a few probes per tile, not a look at every event.
    static func runEnd(_ codes: SpillableArray<UInt64>, from start: Int, inRun: (UInt64) -> Bool) -> Int {
        var inside = start, step = 1
        while inside + step < codes.count && inRun(codes[inside + step]) {
            inside += step
            step *= 2
        }
        var outside = min(inside + step, codes.count)  // the first position known not to be in the run
        while outside - inside > 1 {
            let middle = inside + (outside - inside) / 2
            if inRun(codes[middle]) { inside = middle } else { outside = middle }
        }
        return outside
    }
}

/// One cluster feature: the events of one grid cell that its zoom does not show.
public struct ClusterFeature: Hashable, Sendable {
    /// The cell's column and row in the world grid of its zoom (2^(zoom + cellBits) cells across).
    public let cellX: UInt32
    public let cellY: UInt32
    /// How many events it stands for (`point_count`).
    public let count: Int
    /// Mean fixed-point world position of its events.
    public let worldX: UInt32
    public let worldY: UInt32
    /// Largest magnitude among its events (`max_mag`), NaN when none is known.
    public let maxMagnitude: Double
    /// Time span of its events (`first_time`, `last_time`).
    public let firstTime: Int64
    public let lastTime: Int64
    /// The zoom at which the first of its events appears on its own (`expand_zoom`);
    /// `Thinning.never` when none does (all cut by the size guard).
    public let expandZoom: UInt8

    /// The feature id in the `clusters` layer: row and column of the cell, unique within a zoom.
    public var featureID: UInt64 { UInt64(cellY) << 24 | UInt64(cellX) }
}

/// What one tile shows: its events in priority order, its clusters in Morton order, and at the
/// low zooms its heat cells.
public struct TileContent: Sendable {
    /// The tile.
    public let key: TileKey
    /// Shown events, most important first.
    public let events: [UInt32]
    /// Clusters (empty when clustering is off).
    public let clusters: [ClusterFeature]
    /// Every event of the tile counted per heat cell, at zooms up to `HeatLayer.maxZoom` (else empty).
    public let heat: [HeatCell]
    /// Whether the shown events are few among the tile's (a low zoom's tile): they lie far apart
    /// in the table, and reading them is picking (see `EventTable.releaseResident(picking:)`).
    public let isSparse: Bool

    /// Features in the tile, events and clusters.
    public var featureCount: Int { events.count + clusters.count }

    /// The content of `run`, or `nil` when the tile would be empty.
    public init?(run: TileRun, points: PointSet, minZoom: [UInt8], options: ThinningOptions) {
        let zoom = run.key.z
        let z = UInt8(zoom)
        var shown: [(rank: UInt32, event: UInt32)] = []
        var clusters: [ClusterFeature] = []
        let order = points.order
        for i in run.range where minZoom[Int(order[i])] <= z {
            shown.append((points.rank[Int(order[i])], order[i]))
        }
        if options.clusters {
            let level = zoom + options.cellBits
            var start = run.range.lowerBound
            while start < run.range.upperBound {
                let cell = Morton.prefix(points.morton[start], level: level)
                var end = start + 1
                while end < run.range.upperBound && Morton.prefix(points.morton[end], level: level) == cell {
                    points.releaseResident(scanning: end)
                    end += 1
                }
                if let cluster = Self.cluster(points: points, minZoom: minZoom, zoom: zoom, level: level, range: start..<end) {
                    clusters.append(cluster)
                }
                start = end
            }
        }
        heat = HeatLayer.cells(points: points, zoom: zoom, range: run.range)
        guard !shown.isEmpty || !clusters.isEmpty || !heat.isEmpty else { return nil }
        shown.sort { $0.rank < $1.rank }
        key = run.key
        events = shown.map(\.event)
        self.clusters = clusters
        isSparse = shown.count * 16 < run.range.count
    }

    /// Every `stride`-th of the events, from the first, and all the clusters and heat cells: a
    /// deterministic sample of a big tile, whose encoded size estimates the whole tile's.
    public func sample(every stride: Int) -> TileContent {
        TileContent(key: key, events: Swift.stride(from: 0, to: events.count, by: stride).map { events[$0] }, clusters: clusters,
                    heat: heat, isSparse: isSparse)
    }

    private init(key: TileKey, events: [UInt32], clusters: [ClusterFeature], heat: [HeatCell], isSparse: Bool) {
        self.key = key
        self.events = events
        self.clusters = clusters
        self.heat = heat
        self.isSparse = isSparse
    }

    private static func cluster(points: PointSet, minZoom: [UInt8], zoom: Int, level: Int, range: Range<Int>) -> ClusterFeature? {
        let z = UInt8(zoom)
        var count = 0
        var sumX: UInt64 = 0, sumY: UInt64 = 0
        var maxMagnitude = -Double.infinity
        var first = Int64.max, last = Int64.min
        var expand = Thinning.never
        for i in range {
            points.releaseResident(scanning: i)
            let e = Int(points.order[i])
            let mz = minZoom[e]
            guard mz > z else { continue }
            count += 1
            sumX += UInt64(points.worldX[e])
            sumY += UInt64(points.worldY[e])
            let m = points.magnitude[e]
            if m > maxMagnitude { maxMagnitude = m }
            first = min(first, points.time[e])
            last = max(last, points.time[e])
            expand = min(expand, mz)
        }
        guard count > 0 else { return nil }
        let e = Int(points.order[range.lowerBound])
        let shift = UInt32(32 - level)
        return ClusterFeature(cellX: points.worldX[e] >> shift, cellY: points.worldY[e] >> shift, count: count,
                              worldX: UInt32(sumX / UInt64(count)), worldY: UInt32(sumY / UInt64(count)),
                              maxMagnitude: maxMagnitude == -.infinity ? .nan : maxMagnitude,
                              firstTime: first, lastTime: last, expandZoom: expand)
    }

    /// A hash of everything the encoded tile depends on, given the same options:
    /// equal fingerprints give byte-identical tiles, so a previous bundle's tile can be reused.
    public func fingerprint(table: EventTable, featureIDs: FeatureIDs, minZoom: [UInt8]) -> UInt64 {
        var hasher = SipHasher()
        hasher.combine(key.packed)
        hasher.combine(UInt64(events.count))
        for e in events {
            let i = Int(e)
            // The event fingerprint covers the id, so the feature id's base number; only a moved one is added.
            hasher.combine(table.fingerprint[i])
            hasher.combine(featureIDs.movedNumber(i).map { $0 | 1 << 63 } ?? 0)
            hasher.combine(UInt64(minZoom[i]))
        }
        hasher.combine(UInt64(clusters.count))
        for c in clusters {
            hasher.combine(c.featureID)
            hasher.combine(UInt64(c.count))
            hasher.combine(UInt64(c.worldX) << 32 | UInt64(c.worldY))
            hasher.combine(c.maxMagnitude)
            hasher.combine(c.firstTime)
            hasher.combine(c.lastTime)
            hasher.combine(UInt64(c.expandZoom))
        }
        hasher.combine(UInt64(heat.count))
        for cell in heat { hasher.combine(UInt64(cell.column) << 40 | UInt64(cell.row) << 32 | UInt64(cell.count)) }
        return hasher.finalize()
    }
}

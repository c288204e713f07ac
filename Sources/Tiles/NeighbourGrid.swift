/// Points in square cells, to ask "is any point within this distance of here?" quickly.
///
/// Cells are at least twice the search radius, so a disc of that radius touches at most 2 × 2
/// cells, and a power of two, so a cell is found by shifts. A cell's points are a list linked
/// through the points, its head in a table indexed by a hash of the cell: two cells that share
/// a slot share a list, which costs a few more distance checks and never a wrong answer, so
/// the table keeps no keys and a question touches one slot and the points it checks. The
/// sweeps of the spacing thinning ask millions of these questions per zoom, in an order
/// unrelated to position; the cache misses of a bigger table were most of their time.
///
/// Each point carries tags (two bits): two sweeps over the same events, whose kept sets
/// mostly agree, share one grid and one walk per question (see `SpacingSweep`).
struct NeighbourGrid {
    /// The search radius in fixed-point world units.
    let radius: Int64
    private let shift: UInt32
    private var heads: [Int32]
    private var mask: Int
    private var points: [Point] = []

    private struct Point {
        let x: UInt32
        let y: UInt32
        /// The tags in the top two bits; below, the next point of the list plus one (0: none).
        let link: UInt32

        init(x: UInt32, y: UInt32, tags: UInt8, next: Int32) {
            self.x = x
            self.y = y
            link = UInt32(tags) << 30 | UInt32(next + 1)
        }

        var tags: UInt8 { UInt8(link >> 30) }
        var next: Int32 { Int32(link & (1 << 30 - 1)) - 1 }
    }

    /// An empty grid for searches within `radius` units (at least 1).
    init(radius: Int64, expected: Int) {
        self.radius = max(radius, 1)
        var shift: UInt32 = 0
        while shift < 32 && Int64(1) << shift < 2 * self.radius { shift += 1 }
        self.shift = shift
        var capacity = 16
        while capacity < 2 * expected { capacity <<= 1 }
        heads = Array(repeating: -1, count: capacity)
        mask = capacity - 1
        points.reserveCapacity(expected)
    }

    /// Adds a point with `tags` (1 or 2 or both; 1 when the grid has one kind of point).
    mutating func insert(x px: UInt32, y py: UInt32, tags: UInt8 = 1) {
        precondition(points.count < 1 << 30 - 1, "a neighbour grid holds fewer than 2^30 points")
        if points.count >= heads.count { grow() }
        let slot = self.slot(px >> shift, py >> shift)
        points.append(Point(x: px, y: py, tags: tags, next: heads[slot]))
        heads[slot] = Int32(points.count - 1)
    }

    /// Whether a point of the grid lies within `radius` of (px, py).
    func hasPoint(near px: UInt32, _ py: UInt32) -> Bool {
        tags(near: px, py, all: 1) != 0
    }

    /// Which of the tags `all` the points within `radius` of (px, py) carry, together; the walk
    /// stops once it has found them all.
    func tags(near px: UInt32, _ py: UInt32, all: UInt8) -> UInt8 {
        let cx = px >> shift, cy = py >> shift
        // The disc reaches its own column and row and the one on the nearer side of each.
        let half = UInt32(truncatingIfNeeded: (UInt64(1) << shift) >> 1)
        let ox = px &- (cx << shift) < half ? (cx > 0 ? cx - 1 : cx) : cx &+ 1
        let oy = py &- (cy << shift) < half ? (cy > 0 ? cy - 1 : cy) : cy &+ 1
        var found = listTags(slot(cx, cy), near: px, py, all: all)
        if found != all && ox != cx { found |= listTags(slot(ox, cy), near: px, py, all: all) }
        if found != all && oy != cy { found |= listTags(slot(cx, oy), near: px, py, all: all) }
        if found != all && ox != cx && oy != cy { found |= listTags(slot(ox, oy), near: px, py, all: all) }
        return found
    }

    @inline(__always)
    private func listTags(_ slot: Int, near px: UInt32, _ py: UInt32, all: UInt8) -> UInt8 {
        var p = heads[slot]
        let r2 = radius * radius
        var found: UInt8 = 0
        while p >= 0 {
            let point = points[Int(p)]
            // A point of another cell sharing the slot may be far: compare the sides before squaring.
            let dx = Int64(point.x) - Int64(px), dy = Int64(point.y) - Int64(py)
            if abs(dx) <= radius && abs(dy) <= radius && dx * dx + dy * dy <= r2 {
                found |= point.tags & all
                if found == all { return found }
            }
            p = point.next
        }
        return found
    }

    @inline(__always)
    private func slot(_ cx: UInt32, _ cy: UInt32) -> Int {
        Int(truncatingIfNeeded: ((UInt64(cx) << 32 | UInt64(cy)) &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    /// Doubles the table and relinks every point (lists are rebuilt in insertion order).
    private mutating func grow() {
        heads = Array(repeating: -1, count: heads.count * 2)
        mask = heads.count - 1
        let old = points
        points.removeAll(keepingCapacity: true)
        for point in old {
            let slot = self.slot(point.x >> shift, point.y >> shift)
            points.append(Point(x: point.x, y: point.y, tags: point.tags, next: heads[slot]))
            heads[slot] = Int32(points.count - 1)
        }
    }
}

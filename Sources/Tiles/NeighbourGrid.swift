/// Points in square cells, to ask "is any point within this distance of here?" quickly.
///
/// Cells are at least twice the search radius, so a disc of that radius touches at most 2 × 2
/// cells, and a power of two, so a cell is found by shifts. A cell's points are a list linked
/// through the points, its head in a table indexed by a hash of the cell: two cells that share
/// a slot share a list, which costs a few more distance checks and never a wrong answer, so
/// the table keeps no keys and a question touches one slot and the points it checks. The
/// sweeps of the spacing thinning ask millions of these questions per zoom, in an order
/// unrelated to position; the cache misses of a bigger table were most of their time.
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
        let next: Int32
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

    /// Adds a point.
    mutating func insert(x px: UInt32, y py: UInt32) {
        if points.count >= heads.count { grow() }
        let slot = self.slot(px >> shift, py >> shift)
        points.append(Point(x: px, y: py, next: heads[slot]))
        heads[slot] = Int32(points.count - 1)
    }

    /// Whether a point of the grid lies within `radius` of (px, py).
    func hasPoint(near px: UInt32, _ py: UInt32) -> Bool {
        let cx = px >> shift, cy = py >> shift
        // The disc reaches its own column and row and the one on the nearer side of each.
        let half = UInt32(truncatingIfNeeded: (UInt64(1) << shift) >> 1)
        let ox = px &- (cx << shift) < half ? (cx > 0 ? cx - 1 : cx) : cx &+ 1
        let oy = py &- (cy << shift) < half ? (cy > 0 ? cy - 1 : cy) : cy &+ 1
        if listHasPoint(slot(cx, cy), near: px, py) { return true }
        if ox != cx && listHasPoint(slot(ox, cy), near: px, py) { return true }
        if oy != cy && listHasPoint(slot(cx, oy), near: px, py) { return true }
        return ox != cx && oy != cy && listHasPoint(slot(ox, oy), near: px, py)
    }

    @inline(__always)
    private func listHasPoint(_ slot: Int, near px: UInt32, _ py: UInt32) -> Bool {
        var p = heads[slot]
        let r2 = radius * radius
        while p >= 0 {
            let point = points[Int(p)]
            // A point of another cell sharing the slot may be far: compare the sides before squaring.
            let dx = Int64(point.x) - Int64(px), dy = Int64(point.y) - Int64(py)
            if abs(dx) <= radius && abs(dy) <= radius && dx * dx + dy * dy <= r2 { return true }
            p = point.next
        }
        return false
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
            points.append(Point(x: point.x, y: point.y, next: heads[slot]))
            heads[slot] = Int32(points.count - 1)
        }
    }
}

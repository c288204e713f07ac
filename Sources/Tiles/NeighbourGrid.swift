/// Points in square cells, to ask "is any point within this distance of here?" quickly.
///
/// Cells are at least twice the search radius, so a disc of that radius touches at most 2 × 2
/// cells, and a power of two, so a cell is found by shifts. A cell's points are a list whose
/// head sits in a table indexed by a hash of the cell and whose older points are linked
/// through an array: two cells that share a slot share a list, which costs a few more
/// distance checks and never a wrong answer, so the table keeps no keys. The sweeps of the
/// spacing thinning ask millions of these questions per zoom, in an order unrelated to
/// position, and their time is cache misses: the head is kept in the slot itself because
/// it usually answers (a cell's newest point is near the others), one miss per question
/// instead of two.
///
/// Each point carries tags (two bits): two sweeps over the same events, whose kept sets
/// mostly agree, share one grid and one walk per question (see `SpacingSweep`).
struct NeighbourGrid {
    /// The search radius in fixed-point world units.
    let radius: Int64
    private let shift: UInt32
    /// Per slot, the newest point of its list (tags 0: an empty slot).
    private var heads: [Point]
    private var mask: Int
    /// The points below the heads, each linking to the next older one.
    private var older: [Point] = []
    private var count = 0

    private struct Point {
        let x: UInt32
        let y: UInt32
        /// The tags in the top two bits; below, the index in `older` of the next point plus one (0: none).
        let link: UInt32

        init(x: UInt32, y: UInt32, tags: UInt8, next: Int32) {
            self.x = x
            self.y = y
            link = UInt32(tags) << 30 | UInt32(next + 1)
        }

        static let empty = Point(x: 0, y: 0, tags: 0, next: -1)

        var tags: UInt8 { UInt8(link >> 30) }
        var next: Int32 { Int32(link & (1 << 30 - 1)) - 1 }
    }

    /// An empty grid for searches within `radius` units (at least 1), with a slot per point for
    /// `expected` points (more slots would spare a few distance checks and, at the deepest zooms
    /// of the whole catalog, cost 50 MB more).
    init(radius: Int64, expected: Int) {
        self.radius = max(radius, 1)
        var shift: UInt32 = 0
        while shift < 32 && Int64(1) << shift < 2 * self.radius { shift += 1 }
        self.shift = shift
        var capacity = 16
        while capacity < expected { capacity <<= 1 }
        heads = Array(repeating: .empty, count: capacity)
        mask = capacity - 1
    }

    /// Adds a point with `tags` (1 or 2 or both; 1 when the grid has one kind of point).
    mutating func insert(x px: UInt32, y py: UInt32, tags: UInt8 = 1) {
        precondition(tags != 0 && tags <= 3, "a neighbour grid's point has tags 1, 2 or 3")
        precondition(older.count < 1 << 30 - 1, "a neighbour grid holds fewer than 2^30 points")
        if count >= heads.count { grow() }
        link(Point(x: px, y: py, tags: tags, next: -1))
        count += 1
    }

    /// Puts `point` at the head of its slot's list, the head it replaces moving to `older`.
    private mutating func link(_ point: Point) {
        let slot = self.slot(point.x >> shift, point.y >> shift)
        var next: Int32 = -1
        if heads[slot].tags != 0 {
            older.append(heads[slot])
            next = Int32(older.count - 1)
        }
        heads[slot] = Point(x: point.x, y: point.y, tags: point.tags, next: next)
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
        var point = heads[slot]
        guard point.tags != 0 else { return 0 }
        let r2 = radius * radius
        var found: UInt8 = 0
        while true {
            // A point of another cell sharing the slot may be far: compare the sides before squaring.
            let dx = Int64(point.x) - Int64(px), dy = Int64(point.y) - Int64(py)
            if abs(dx) <= radius && abs(dy) <= radius && dx * dx + dy * dy <= r2 {
                found |= point.tags & all
                if found == all { return found }
            }
            let next = point.next
            guard next >= 0 else { return found }
            point = older[Int(next)]
        }
    }

    @inline(__always)
    private func slot(_ cx: UInt32, _ cy: UInt32) -> Int {
        Int(truncatingIfNeeded: ((UInt64(cx) << 32 | UInt64(cy)) &* 0x9E37_79B9_7F4A_7C15) >> 24) & mask
    }

    /// Doubles the table and relinks every point (the order within a list does not change an answer).
    private mutating func grow() {
        let all = heads.filter { $0.tags != 0 } + older
        heads = Array(repeating: .empty, count: heads.count * 2)
        mask = heads.count - 1
        older.removeAll(keepingCapacity: true)
        for point in all { link(point) }
    }
}

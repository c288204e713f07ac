/// Points in square cells, to ask "is any point within this distance of here?" quickly.
///
/// Cells are at least twice the search radius, so a disc of that radius touches at most 2 × 2
/// cells, and a power of two, so a cell is found by shifts (a division per coordinate had
/// been half the time of a question).
/// The cells live in an open-addressing table of their own (a slot holds the packed cell
/// column and row and the newest point of a list linked through the points): the sweeps of
/// the spacing thinning ask millions of these questions per zoom, and a `Dictionary` of
/// arrays costs several times as much per question. A slot and a point are each one value,
/// so a question touches few cache lines.
struct NeighbourGrid {
    /// The search radius in fixed-point world units.
    let radius: Int64
    private let shift: UInt32
    private var slots: [Slot]
    private var mask: Int
    private var used = 0
    private var points: [Point] = []

    private struct Slot {
        var key: UInt64
        var head: Int32
    }

    private struct Point {
        let x: UInt32
        let y: UInt32
        let next: Int32
    }

    private static let empty = UInt64.max

    /// An empty grid for searches within `radius` units (at least 1).
    init(radius: Int64, expected: Int) {
        self.radius = max(radius, 1)
        var shift: UInt32 = 0
        while shift < 32 && Int64(1) << shift < 2 * self.radius { shift += 1 }
        self.shift = shift
        var capacity = 16
        while capacity < 2 * expected { capacity <<= 1 }
        slots = Array(repeating: Slot(key: Self.empty, head: -1), count: capacity)
        mask = capacity - 1
        points.reserveCapacity(expected)
    }

    /// Adds a point.
    mutating func insert(x px: UInt32, y py: UInt32) {
        if 2 * (used + 1) > slots.count { grow() }
        let key = Self.key(px >> shift, py >> shift)
        let slot = findSlot(key)
        if slots[slot].key == Self.empty {
            slots[slot].key = key
            used += 1
        }
        points.append(Point(x: px, y: py, next: slots[slot].head))
        slots[slot].head = Int32(points.count - 1)
    }

    /// Whether a point of the grid lies within `radius` of (px, py).
    func hasPoint(near px: UInt32, _ py: UInt32) -> Bool {
        let cx = px >> shift, cy = py >> shift
        // The disc reaches its own column and row and the one on the nearer side of each.
        let half = UInt32(truncatingIfNeeded: (UInt64(1) << shift) >> 1)
        let ox = px &- (cx << shift) < half ? (cx > 0 ? cx - 1 : cx) : cx &+ 1
        let oy = py &- (cy << shift) < half ? (cy > 0 ? cy - 1 : cy) : cy &+ 1
        if cellHasPoint(cx, cy, near: px, py) { return true }
        if ox != cx && cellHasPoint(ox, cy, near: px, py) { return true }
        if oy != cy && cellHasPoint(cx, oy, near: px, py) { return true }
        return ox != cx && oy != cy && cellHasPoint(ox, oy, near: px, py)
    }

    @inline(__always)
    private func cellHasPoint(_ gx: UInt32, _ gy: UInt32, near px: UInt32, _ py: UInt32) -> Bool {
        var p = slots[findSlot(Self.key(gx, gy))].head
        let r2 = radius * radius
        while p >= 0 {
            let point = points[Int(p)]
            let dx = Int64(point.x) - Int64(px), dy = Int64(point.y) - Int64(py)
            if dx * dx + dy * dy <= r2 { return true }
            p = point.next
        }
        return false
    }

    @inline(__always)
    private static func key(_ cx: UInt32, _ cy: UInt32) -> UInt64 { UInt64(cx) << 32 | UInt64(cy) }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func findSlot(_ key: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while slots[slot].key != key && slots[slot].key != Self.empty { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: Self.empty, head: -1), count: old.count * 2)
        mask = slots.count - 1
        for s in old where s.key != Self.empty { slots[findSlot(s.key)] = s }
    }
}

/// Points in square cells, to ask "is any point within this distance of here?" quickly.
///
/// Cells are twice the search radius, so a disc of that radius touches at most 2 × 2 cells.
/// The cells live in an open-addressing table of their own (keys are the packed cell column
/// and row, values the newest point of a linked list through `next`): the sweeps of the
/// spacing thinning ask millions of these questions per zoom, and a `Dictionary` of arrays
/// costs several times as much per question.
struct NeighbourGrid {
    /// The search radius in fixed-point world units.
    let radius: Int64
    private let cell: UInt32
    private var keys: [UInt64]
    private var heads: [Int32]
    private var mask: Int
    private var used = 0
    private var x: [UInt32] = []
    private var y: [UInt32] = []
    private var next: [Int32] = []

    private static let empty = UInt64.max

    /// An empty grid for searches within `radius` units (at least 1).
    init(radius: Int64, expected: Int) {
        self.radius = max(radius, 1)
        cell = UInt32(min(2 * self.radius, Int64(UInt32.max)))
        var capacity = 16
        while capacity < 2 * expected { capacity <<= 1 }
        keys = Array(repeating: Self.empty, count: capacity)
        heads = Array(repeating: -1, count: capacity)
        mask = capacity - 1
    }

    /// Adds a point.
    mutating func insert(x px: UInt32, y py: UInt32) {
        if 2 * (used + 1) > keys.count { grow() }
        let slot = findSlot(key(px / cell, py / cell))
        if keys[slot] == Self.empty {
            keys[slot] = key(px / cell, py / cell)
            used += 1
        }
        next.append(heads[slot])
        heads[slot] = Int32(x.count)
        x.append(px)
        y.append(py)
    }

    /// Whether a point of the grid lies within `radius` of (px, py).
    func hasPoint(near px: UInt32, _ py: UInt32) -> Bool {
        let cx = px / cell, cy = py / cell
        // The two columns and rows the disc can reach: its own and the one on the nearer side.
        let ox = px % cell < cell / 2 ? (cx > 0 ? cx - 1 : cx) : cx &+ 1
        let oy = py % cell < cell / 2 ? (cy > 0 ? cy - 1 : cy) : cy &+ 1
        let r2 = radius * radius
        for gx in Set2(cx, ox) {
            for gy in Set2(cy, oy) {
                var p = heads[findSlot(key(gx, gy))]
                while p >= 0 {
                    let dx = Int64(x[Int(p)]) - Int64(px), dy = Int64(y[Int(p)]) - Int64(py)
                    if dx * dx + dy * dy <= r2 { return true }
                    p = next[Int(p)]
                }
            }
        }
        return false
    }

    @inline(__always)
    private func key(_ cx: UInt32, _ cy: UInt32) -> UInt64 { UInt64(cx) << 32 | UInt64(cy) }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func findSlot(_ key: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20) & mask
        while keys[slot] != key && keys[slot] != Self.empty { slot = (slot + 1) & mask }
        return slot
    }

    private mutating func grow() {
        let oldKeys = keys, oldHeads = heads
        keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
        heads = Array(repeating: -1, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (i, k) in oldKeys.enumerated() where k != Self.empty {
            let slot = findSlot(k)
            keys[slot] = k
            heads[slot] = oldHeads[i]
        }
    }
}

/// One or two distinct values, to visit without a heap allocation.
private struct Set2: Sequence, IteratorProtocol {
    private var pending: (UInt32?, UInt32?)

    init(_ a: UInt32, _ b: UInt32) { pending = (a, a == b ? nil : b) }

    mutating func next() -> UInt32? {
        defer { pending = (pending.1, nil) }
        return pending.0
    }
}

import QuakeCommon
import QuakeTiles

/// Packs points into the node blobs of an SQLite `rtree` virtual table in bulk.
///
/// Inserting a million points through the rtree module costs about 20 µs each
/// (20 s), and its tree shape depends on insert history. Packing the tree
/// directly — points sorted along the Morton curve, 51 per leaf, 51 children
/// per inner node — takes well under a second and gives the same bytes for the
/// same points. The points arrive already sorted (by the caller), so only one leaf,
/// the leaf boxes and the rowids in packing order are held here. The layout follows SQLite's ext/rtree/rtree.c: node size
/// `min(page size - 64, 4 + 51 · 24)` bytes; bytes 0–1 the tree depth (root
/// only), 2–3 the cell count, then 24-byte cells of a big-endian 64-bit rowid
/// (or child node number) and four big-endian float32s (min x, max x, min y,
/// max y) rounded outwards. Nodes are numbered from the root (1) down, level by
/// level. The tests check the result with `rtreecheck()`.
struct RTreePacker {
    /// Cells per node (RTREE_MAXCELLS).
    static let capacity = 51
    /// Bytes per node for a 2-dimensional rtree on 4096-byte pages.
    static let nodeSize = min(SQLiteBuild.pageSize - 64, 4 + capacity * 24)

    /// Where the packed tree goes: nodes as they are made (leaves first), then the
    /// leaf of every rowid in rowid order, then the parent of every node but the root.
    struct Sink {
        var node: (_ number: Int64, _ blob: [UInt8]) throws -> Void
        var leaf: (_ rowid: Int64, _ node: Int64) throws -> Void
        var parent: (_ node: Int64, _ parent: Int64) throws -> Void
    }

    private struct Box {
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        mutating func add(_ other: Box) {
            minX = min(minX, other.minX); maxX = max(maxX, other.maxX)
            minY = min(minY, other.minY); maxY = max(maxY, other.maxY)
        }
    }

    /// The packing order of a point: the Morton code of its Web Mercator position, the order
    /// in which the export holds its events (equal codes go by rowid).
    static func key(longitude: Double, latitude: Double) -> UInt64 {
        Morton.code(x: WebMercator.worldX(longitude: longitude), y: WebMercator.worldY(latitude: latitude))
    }

    /// Packs `count` points with distinct rowids, handed over by `points` in packing order
    /// (by `key`, then rowid): `points` calls its argument once per point.
    static func pack(count: Int, points: ((_ rowid: Int64, _ longitude: Double, _ latitude: Double) throws -> Void) throws -> Void,
                     into sink: Sink) throws {
        // Nodes per level, leaves first, and the first node number of each level (root = 1).
        var levelSizes = [max(1, (count + capacity - 1) / capacity)]
        while levelSizes.last! > 1 { levelSizes.append((levelSizes.last! + capacity - 1) / capacity) }
        var firstNumber = [Int64](repeating: 0, count: levelSizes.count)
        var next: Int64 = 1
        for level in levelSizes.indices.reversed() {
            firstNumber[level] = next
            next += Int64(levelSizes[level])
        }
        let depth = levelSizes.count - 1

        // The rowids in packing order: point p sits in leaf p / capacity.
        var rowids: [Int64] = []
        rowids.reserveCapacity(count)
        var boxes: [Box] = []
        boxes.reserveCapacity(levelSizes[0])
        var blob = header(cells: 0, depth: nil)
        var cells = 0
        var box = Box(minX: 0, maxX: 0, minY: 0, maxY: 0)
        func flushLeaf() throws {
            put(UInt64(cells), bytes: 2, into: &blob, at: 2)
            if depth == 0 { put(UInt64(depth), bytes: 2, into: &blob, at: 0) }
            try sink.node(firstNumber[0] + Int64(boxes.count), blob)
            boxes.append(box)
            blob = header(cells: 0, depth: nil)
            cells = 0
        }
        var seen = 0
        try points { rowid, longitude, latitude in
            let x = outward(longitude), y = outward(latitude)
            let cell = Box(minX: x.low, maxX: x.high, minY: y.low, maxY: y.high)
            write(cell: cells, id: rowid, box: cell, into: &blob)
            if cells == 0 { box = cell } else { box.add(cell) }
            cells += 1
            rowids.append(rowid)
            seen += 1
            if cells == capacity { try flushLeaf() }
        }
        guard seen == count else { throw QuakeBakeError("quakes.sqlite: \(seen) points packed, \(count) expected") }
        if cells > 0 || boxes.isEmpty { try flushLeaf() }

        var parents: [(node: Int64, parent: Int64)] = []
        for level in 1..<max(1, levelSizes.count) {
            var above: [Box] = []
            for node in 0..<levelSizes[level] {
                let children = min(node * capacity, boxes.count)..<min((node + 1) * capacity, boxes.count)
                var blob = header(cells: children.count, depth: level == depth ? depth : nil)
                var box = boxes[children.lowerBound]
                let number = firstNumber[level] + Int64(node)
                for (c, child) in children.enumerated() {
                    let childNumber = firstNumber[level - 1] + Int64(child)
                    write(cell: c, id: childNumber, box: boxes[child], into: &blob)
                    box.add(boxes[child])
                    parents.append((childNumber, number))
                }
                try sink.node(number, blob)
                above.append(box)
            }
            boxes = above
        }
        let byRowid = Self.rowidOrder(rowids)
        for (a, b) in zip(byRowid, byRowid.dropFirst()) where rowids[Int(a)] == rowids[Int(b)] {
            throw QuakeBakeError("quakes.sqlite: rowid \(rowids[Int(a)]) packed twice")
        }
        for p in byRowid { try sink.leaf(rowids[Int(p)], firstNumber[0] + Int64(Int(p) / capacity)) }
        for link in parents.sorted(by: { $0.node < $1.node }) { try sink.parent(link.node, link.parent) }
    }

    /// The positions of `rowids` in rowid order: counted into 65,536 buckets by their leading
    /// bits, then each bucket sorted. Rowids are feature ids, hashes spread evenly over their
    /// range, so buckets hold a few each: as fast as a radix sort, in a third of its memory.
    private static func rowidOrder(_ rowids: [Int64]) -> [UInt32] {
        guard let low = rowids.min(), let high = rowids.max() else { return [] }
        let span = UInt64(bitPattern: high &- low)
        let shift = UInt64(max(0, 64 - span.leadingZeroBitCount - 16))
        func bucket(_ rowid: Int64) -> Int { Int(UInt64(bitPattern: rowid &- low) >> shift) }
        var next = [Int](repeating: 0, count: (1 << 16) + 1)
        for rowid in rowids { next[bucket(rowid) + 1] += 1 }
        for b in 1..<next.count { next[b] += next[b - 1] }
        let starts = next
        var order = [UInt32](repeating: 0, count: rowids.count)
        for (p, rowid) in rowids.enumerated() {
            order[next[bucket(rowid)]] = UInt32(p)
            next[bucket(rowid)] += 1
        }
        for b in 0..<(1 << 16) where starts[b + 1] - starts[b] > 1 {
            order[starts[b]..<starts[b + 1]].sort { rowids[Int($0)] < rowids[Int($1)] }
        }
        return order
    }

    /// An empty node: the depth (root only) and the cell count.
    private static func header(cells: Int, depth: Int?) -> [UInt8] {
        var blob = [UInt8](repeating: 0, count: nodeSize)
        if let depth { put(UInt64(depth), bytes: 2, into: &blob, at: 0) }
        put(UInt64(cells), bytes: 2, into: &blob, at: 2)
        return blob
    }

    private static func write(cell c: Int, id: Int64, box: Box, into blob: inout [UInt8]) {
        let p = 4 + c * 24
        put(UInt64(bitPattern: id), bytes: 8, into: &blob, at: p)
        for (k, f) in [box.minX, box.maxX, box.minY, box.maxY].enumerated() {
            put(UInt64(f.bitPattern), bytes: 4, into: &blob, at: p + 8 + 4 * k)
        }
    }

    /// float32 bounds that contain `v`, as the rtree module stores coordinates.
    private static func outward(_ v: Double) -> (low: Float, high: Float) {
        let f = Float(v)
        let low = Double(f) > v ? f.nextDown : f
        let high = Double(f) < v ? f.nextUp : f
        return (low, high)
    }

    /// Big-endian `bytes`-byte integer at `i`.
    private static func put(_ v: UInt64, bytes: Int, into blob: inout [UInt8], at i: Int) {
        for k in 0..<bytes { blob[i + k] = UInt8(truncatingIfNeeded: v >> UInt64(8 * (bytes - 1 - k))) }
    }
}

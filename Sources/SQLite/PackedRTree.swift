import GRDB
import QuakeCommon

/// Fills an empty SQLite `rtree` (2-D, no auxiliary columns: the store's SpatiaLite
/// spatial index and the app database's `events_rtree` alike) in bulk, by writing
/// its shadow tables directly.
///
/// Inserting a million points through the rtree module costs about 20 µs each
/// (20 s), and its tree shape depends on insert history. Packing the tree
/// directly — points taken in the caller's order (a Morton order keeps neighbours
/// together), `capacity` per leaf and per inner node — takes well under a second and
/// gives the same bytes for the same points. Only one leaf, the leaf boxes and the
/// rowids in packing order are held here. The layout follows SQLite's
/// ext/rtree/rtree.c (https://sqlite.org/rtree.html): a node is bytes 0–1 the tree
/// depth (root only), 2–3 the cell count, then 24-byte cells of a big-endian 64-bit
/// rowid (or child node number) and four big-endian float32s (min x, max x, min y,
/// max y) rounded outwards, so that every point lies inside its box; nodes are
/// numbered from the root (1) down, level by level; `_rowid` maps each rowid to its
/// leaf and `_parent` each node to its parent. The tests check the result with
/// SQLite's `rtreecheck()`.
public enum PackedRTree {
    /// The points to pack: called once with a function to call once per point, in packing order.
    public typealias Points = ((_ rowid: Int64, _ x: Double, _ y: Double) throws -> Void) throws -> Void

    /// How many cells a node of the empty rtree `table` holds (from its root node's size).
    public static func nodeCapacity(_ db: Database, table: String) throws -> Int {
        guard let nodeBytes = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(shadow(table, "node")) WHERE nodeno = 1"),
              nodeBytes > 4 + 2 * cellBytes else {
            throw DatabaseError(message: "\(table) is not an empty 2-D R-tree")
        }
        return (nodeBytes - 4) / cellBytes
    }

    /// A packing order for points in degrees: the Morton code of their longitude and latitude
    /// (equal codes go by rowid).
    public static func key(longitude: Double, latitude: Double) -> UInt64 {
        func fixed(_ value: Double, _ low: Double, _ span: Double) -> UInt32 {
            UInt32(max(0, min(Double(UInt32.max), ((value - low) / span * 4_294_967_296).rounded(.down))))
        }
        return Morton.code(x: fixed(longitude, -180, 360), y: fixed(latitude, -90, 180))
    }

    /// Replaces the content of the rtree `table` with `count` points with distinct rowids,
    /// handed over by `points` in packing order.
    public static func write(into table: String, _ db: Database, count: Int, points: Points) throws {
        let capacity = try nodeCapacity(db, table: table)
        let nodeTable = shadow(table, "node"), rowidTable = shadow(table, "rowid"), parentTable = shadow(table, "parent")
        try db.execute(sql: "DELETE FROM \(nodeTable); DELETE FROM \(rowidTable); DELETE FROM \(parentTable)")
        let node = try RawStatement(db, "INSERT INTO \(nodeTable) (nodeno, data) VALUES (?, ?)")
        let parent = try RawStatement(db, "INSERT INTO \(parentTable) (nodeno, parentnode) VALUES (?, ?)")
        let leaves = try LeafWriter(db, table: rowidTable)
        try pack(count: count, capacity: capacity, points: points, into: Sink(
            node: { number, blob in
                node.bind(1, number)
                blob.withUnsafeBytes { node.bind(2, blob: $0) }
                try node.run()
            },
            leaf: { rowid, number in try leaves.add(rowid: rowid, node: number) },
            parent: { number, parentNumber in
                parent.bind(1, number)
                parent.bind(2, parentNumber)
                try parent.run()
            }))
        try leaves.flush()
    }

    /// Where the packed tree goes: nodes as they are made (leaves first), then the
    /// leaf of every rowid in rowid order, then the parent of every node but the root.
    private struct Sink {
        var node: (_ number: Int64, _ blob: [UInt8]) throws -> Void
        var leaf: (_ rowid: Int64, _ node: Int64) throws -> Void
        var parent: (_ node: Int64, _ parent: Int64) throws -> Void
    }

    /// Writes `_rowid` rows `batch` at a time: one statement per row costs about twice as much.
    private final class LeafWriter {
        private static let batch = 256
        private let many: RawStatement, one: RawStatement
        private var pending: [(rowid: Int64, node: Int64)] = []

        init(_ db: Database, table: String) throws {
            many = try RawStatement.insert(db, into: table, columns: ["rowid", "nodeno"], rows: Self.batch)
            one = try RawStatement.insert(db, into: table, columns: ["rowid", "nodeno"], rows: 1)
            pending.reserveCapacity(Self.batch)
        }

        func add(rowid: Int64, node: Int64) throws {
            pending.append((rowid, node))
            if pending.count == Self.batch { try flush() }
        }

        /// Inserts the pending rows: a full batch at once, fewer one by one.
        func flush() throws {
            if pending.count == Self.batch {
                for (i, row) in pending.enumerated() {
                    many.bind(Int32(2 * i + 1), row.rowid)
                    many.bind(Int32(2 * i + 2), row.node)
                }
                try many.run()
            } else {
                for row in pending {
                    one.bind(1, row.rowid)
                    one.bind(2, row.node)
                    try one.run()
                }
            }
            pending.removeAll(keepingCapacity: true)
        }
    }

    private struct Box {
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        mutating func add(_ other: Box) {
            minX = min(minX, other.minX); maxX = max(maxX, other.maxX)
            minY = min(minY, other.minY); maxY = max(maxY, other.maxY)
        }
    }

    /// 8-byte id and four 4-byte floats.
    private static let cellBytes = 24

    private static func pack(count: Int, capacity: Int, points: Points, into sink: Sink) throws {
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
        let nodeSize = 4 + capacity * cellBytes

        // The rowids in packing order: point p sits in leaf p / capacity.
        var rowids: [Int64] = []
        rowids.reserveCapacity(count)
        var boxes: [Box] = []
        boxes.reserveCapacity(levelSizes[0])
        var blob = header(cells: 0, depth: nil, size: nodeSize)
        var cells = 0
        var box = Box(minX: 0, maxX: 0, minY: 0, maxY: 0)
        func flushLeaf() throws {
            put(UInt64(cells), bytes: 2, into: &blob, at: 2)
            if depth == 0 { put(UInt64(depth), bytes: 2, into: &blob, at: 0) }
            try sink.node(firstNumber[0] + Int64(boxes.count), blob)
            boxes.append(box)
            blob = header(cells: 0, depth: nil, size: nodeSize)
            cells = 0
        }
        var seen = 0
        try points { rowid, x, y in
            let x = outward(x), y = outward(y)
            let cell = Box(minX: x.low, maxX: x.high, minY: y.low, maxY: y.high)
            write(cell: cells, id: rowid, box: cell, into: &blob)
            if cells == 0 { box = cell } else { box.add(cell) }
            cells += 1
            rowids.append(rowid)
            seen += 1
            if cells == capacity { try flushLeaf() }
        }
        guard seen == count else { throw DatabaseError(message: "R-tree: \(seen) points packed, \(count) expected") }
        if cells > 0 || boxes.isEmpty { try flushLeaf() }

        var parents: [(node: Int64, parent: Int64)] = []
        for level in 1..<max(1, levelSizes.count) {
            var above: [Box] = []
            for node in 0..<levelSizes[level] {
                let children = min(node * capacity, boxes.count)..<min((node + 1) * capacity, boxes.count)
                var blob = header(cells: children.count, depth: level == depth ? depth : nil, size: nodeSize)
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
            throw DatabaseError(message: "R-tree: rowid \(rowids[Int(a)]) packed twice")
        }
        for p in byRowid { try sink.leaf(rowids[Int(p)], firstNumber[0] + Int64(Int(p) / capacity)) }
        for link in parents.sorted(by: { $0.node < $1.node }) { try sink.parent(link.node, link.parent) }
    }

    /// The positions of `rowids` in rowid order: counted into 65,536 buckets by their leading
    /// bits, then each bucket sorted. Rowids (feature ids, hashes; the store's, dense) spread
    /// evenly over their range, so buckets hold a few each: as fast as a radix sort, in a
    /// third of its memory.
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

    /// The quoted name of one of the R-tree's shadow tables (`node`, `rowid`, `parent`).
    private static func shadow(_ table: String, _ suffix: String) -> String {
        "\(table)_\(suffix)".quotedDatabaseIdentifier
    }

    /// An empty node: the depth (root only) and the cell count.
    private static func header(cells: Int, depth: Int?, size: Int) -> [UInt8] {
        var blob = [UInt8](repeating: 0, count: size)
        if let depth { put(UInt64(depth), bytes: 2, into: &blob, at: 0) }
        put(UInt64(cells), bytes: 2, into: &blob, at: 2)
        return blob
    }

    private static func write(cell c: Int, id: Int64, box: Box, into blob: inout [UInt8]) {
        let p = 4 + c * cellBytes
        precondition(p + cellBytes <= blob.count, "R-tree: cell \(c) does not fit its node")
        blob.withUnsafeMutableBytes { node in
            node.storeBytes(of: UInt64(bitPattern: id).bigEndian, toByteOffset: p, as: UInt64.self)
            node.storeBytes(of: box.minX.bitPattern.bigEndian, toByteOffset: p + 8, as: UInt32.self)
            node.storeBytes(of: box.maxX.bitPattern.bigEndian, toByteOffset: p + 12, as: UInt32.self)
            node.storeBytes(of: box.minY.bitPattern.bigEndian, toByteOffset: p + 16, as: UInt32.self)
            node.storeBytes(of: box.maxY.bitPattern.bigEndian, toByteOffset: p + 20, as: UInt32.self)
        }
    }

    /// float32 bounds that contain `v`, as the rtree module stores coordinates. A row inserted
    /// through the rtree module with these bounds (exact float32 values, which it keeps as they
    /// are) holds the box a packed tree gives the same point.
    public static func outward(_ v: Double) -> (low: Float, high: Float) {
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

import GRDB

/// Bulk-loads a SQLite R-tree (the one behind a SpatiaLite spatial index) by
/// writing its node tables directly: sort-tile-recursive (STR) packing.
///
/// Inserting a million points one by one costs about 20 µs each; packing sorts
/// them once and writes full nodes, in well under a second. The layout written
/// is SQLite's own (https://sqlite.org/rtree.html, rtree.c): node 1 is the root; a
/// node is a 4-byte header (tree depth, in the root only; cell count), then cells of
/// a 64-bit rowid (leaves) or child node number (inner nodes) and
/// `xmin, xmax, ymin, ymax` as 32-bit floats, all big-endian, padded to the node
/// size; `_rowid` maps each entry to its leaf and `_parent` each node to its parent.
/// Boxes are rounded outwards to 32-bit floats, as SQLite does, so that every point
/// lies inside its box. SQLite's `rtreecheck()` verifies the result in the tests.
enum PackedRTree {
    /// A box with 32-bit float bounds, as the R-tree stores it.
    struct Box {
        var minX, maxX, minY, maxY: Float

        /// The smallest float box holding the point: bounds rounded outwards.
        init(x: Double, y: Double) {
            minX = Self.down(x); maxX = Self.up(x); minY = Self.down(y); maxY = Self.up(y)
        }

        init(minX: Float, maxX: Float, minY: Float, maxY: Float) {
            self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
        }

        func union(_ other: Box) -> Box {
            Box(minX: min(minX, other.minX), maxX: max(maxX, other.maxX), minY: min(minY, other.minY), maxY: max(maxY, other.maxY))
        }

        var centerX: Float { minX / 2 + maxX / 2 }
        var centerY: Float { minY / 2 + maxY / 2 }

        private static func down(_ value: Double) -> Float {
            let f = Float(value)
            return Double(f) > value ? f.nextDown : f
        }

        private static func up(_ value: Double) -> Float {
            let f = Float(value)
            return Double(f) < value ? f.nextUp : f
        }
    }

    /// One cell of a node: a box and what it points at (a rowid in a leaf; a group of the
    /// level below in an inner node).
    fileprivate struct Cell {
        var box: Box
        var target: Int64
    }

    /// The packed tree, computed without the database.
    struct Plan: Sendable {
        fileprivate let capacity: Int
        /// Each level below the root, leaves first: its cells, grouped into nodes.
        fileprivate let levels: [(cells: [Cell], groups: [Range<Int>])]
        /// The root's cells.
        fileprivate let top: [Cell]
        fileprivate let largestRowid: Int64
    }

    /// How many cells a node of the 2-D R-tree `table` holds (from its empty root node).
    static func nodeCapacity(_ db: Database, table: String) throws -> Int {
        guard let nodeBytes = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(shadow(table, "node")) WHERE nodeno = 1"),
              nodeBytes > 4 + 2 * cellBytes else {
            throw DatabaseError(message: "\(table) is not an empty 2-D R-tree")
        }
        return (nodeBytes - 4) / cellBytes
    }

    /// Packs `points` into nodes of `capacity` cells, bottom-up: each level is grouped
    /// into nodes, and the nodes are the cells of the level above, up to one root.
    static func plan(_ points: PointLog, capacity: Int) -> Plan {
        var cells: [Cell] = []
        points.forEach { rowid, x, y in cells.append(Cell(box: Box(x: x, y: y), target: rowid)) }
        var levels: [(cells: [Cell], groups: [Range<Int>])] = []
        while cells.count > capacity {
            let groups = tile(&cells, capacity: capacity)
            let parents = groups.enumerated().map { index, range in
                Cell(box: cells[range].dropFirst().reduce(cells[range.lowerBound].box) { $0.union($1.box) }, target: Int64(index))
            }
            levels.append((cells, groups))
            cells = parents
        }
        return Plan(capacity: capacity, levels: levels, top: cells, largestRowid: points.largestRowid)
    }

    /// Replaces the content of the R-tree `table` (2-D, no auxiliary columns) with `plan`.
    static func write(_ plan: Plan, into table: String, _ db: Database) throws {
        let nodeTable = shadow(table, "node"), rowidTable = shadow(table, "rowid"), parentTable = shadow(table, "parent")
        try db.execute(sql: "DELETE FROM \(nodeTable); DELETE FROM \(rowidTable); DELETE FROM \(parentTable)")
        let writeNode = try RawStatement(db, "INSERT INTO \(nodeTable) (nodeno, data) VALUES (?, ?)")
        let writeParent = try RawStatement(db, "INSERT INTO \(parentTable) (nodeno, parentnode) VALUES (?, ?)")
        // The leaf of each rowid, by rowid (0: no entry), so that `_rowid` is written in key order.
        var leafOf = [Int32](repeating: 0, count: Int(plan.largestRowid) + 1)
        var buffer = [UInt8](repeating: 0, count: 4 + plan.capacity * cellBytes)

        // Top-down, breadth first: the root is node 1, the rest are numbered as they are reached.
        let levels = plan.levels
        var pending: [(cells: ArraySlice<Cell>, level: Int, node: Int64, parent: Int64?)] = [(plan.top[...], levels.count, 1, nil)]
        var nextNode: Int64 = 2
        var head = 0
        while head < pending.count {
            var (nodeCells, level, node, parent) = pending[head]
            head += 1
            if level > 0 {
                let below = levels[level - 1]
                for i in nodeCells.indices {
                    pending.append((below.cells[below.groups[Int(nodeCells[i].target)]], level - 1, nextNode, node))
                    nodeCells[i].target = nextNode
                    nextNode += 1
                }
            } else {
                for cell in nodeCells { leafOf[Int(cell.target)] = Int32(node) }
            }
            encode(nodeCells, depth: parent == nil ? levels.count : 0, into: &buffer)
            writeNode.bind(1, node)
            buffer.withUnsafeBytes { writeNode.bind(2, blob: $0) }
            try writeNode.run()
            if let parent {
                writeParent.bind(1, node)
                writeParent.bind(2, parent)
                try writeParent.run()
            }
            if head > 4096 { pending.removeFirst(head); head = 0 }
        }

        let writeRowid = try RawStatement(db, "INSERT INTO \(rowidTable) (rowid, nodeno) VALUES (?, ?)")
        for (rowid, node) in leafOf.enumerated() where node != 0 {
            writeRowid.bind(1, Int64(rowid))
            writeRowid.bind(2, Int64(node))
            try writeRowid.run()
        }
    }

    /// The quoted name of one of the R-tree's shadow tables (`node`, `rowid`, `parent`).
    private static func shadow(_ table: String, _ suffix: String) -> String {
        "\(table)_\(suffix)".quotedDatabaseIdentifier
    }

    /// 8-byte id and four 4-byte floats.
    private static let cellBytes = 24

    /// Sort-tile-recursive grouping, in place: sort by x, cut into vertical slices of
    /// about √(nodes) nodes each, sort each slice by y and cut it into nodes of nearly
    /// equal size. Returns the nodes as ranges of `cells`.
    private static func tile(_ cells: inout [Cell], capacity: Int) -> [Range<Int>] {
        cells.sort { ($0.box.centerX, $0.target) < ($1.box.centerX, $1.target) }
        let nodeCount = (cells.count + capacity - 1) / capacity
        let sliceCount = Int(Double(nodeCount).squareRoot().rounded(.up))
        let sliceSize = ((nodeCount + sliceCount - 1) / sliceCount) * capacity
        var groups: [Range<Int>] = []
        var start = 0
        while start < cells.count {
            let end = Swift.min(start + sliceSize, cells.count)
            cells[start..<end].sort { ($0.box.centerY, $0.target) < ($1.box.centerY, $1.target) }
            let count = end - start
            let nodes = (count + capacity - 1) / capacity
            for n in 0..<nodes {
                groups.append((start + count * n / nodes)..<(start + count * (n + 1) / nodes))
            }
            start = end
        }
        return groups
    }

    private static func encode(_ cells: ArraySlice<Cell>, depth: Int, into buffer: inout [UInt8]) {
        for i in buffer.indices { buffer[i] = 0 }
        buffer.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt16(depth).bigEndian, toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: UInt16(cells.count).bigEndian, toByteOffset: 2, as: UInt16.self)
            var offset = 4
            for cell in cells {
                raw.storeBytes(of: UInt64(bitPattern: cell.target).bigEndian, toByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: cell.box.minX.bitPattern.bigEndian, toByteOffset: offset + 8, as: UInt32.self)
                raw.storeBytes(of: cell.box.maxX.bitPattern.bigEndian, toByteOffset: offset + 12, as: UInt32.self)
                raw.storeBytes(of: cell.box.minY.bitPattern.bigEndian, toByteOffset: offset + 16, as: UInt32.self)
                raw.storeBytes(of: cell.box.maxY.bitPattern.bigEndian, toByteOffset: offset + 20, as: UInt32.self)
                offset += cellBytes
            }
        }
    }
}

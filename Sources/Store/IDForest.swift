import Foundation
import QuakeCommon

/// Which event every id belongs to, as a union–find forest: each id points at a node,
/// each event (group of ids) has a root node carrying its preferred id, so that a
/// redirect is one pointer change however many ids the event has. The operations are
/// those of `IDDirectory`, with the same meaning as the `event_ids` table's: a group is
/// known by its preferred id (`rootNamed`), not by where that id itself points, so an id
/// that left its group never takes the group along. Ids are told apart by their bytes,
/// as SQLite's BINARY collation does.
///
/// Compact, because a fresh store of millions of events holds it whole: each id is kept
/// once, its bytes in one arena, and everything else is 32-bit numbers in flat arrays
/// (an open-addressing table finds an id's number). About 39 bytes an id and 8 a group
/// (a `Dictionary` of `String`s took some 75 an id, and twice that while it grew).
struct IDForest {
    /// Id number i is `arena[offsets[i] ..< offsets[i + 1]]`.
    private var arena: [UInt8] = []
    private var offsets: [UInt32] = [0]
    /// Id numbers by hash of their bytes.
    private var slots: IDSlots
    /// Per id number: the node the id points at (-1 while it is only some group's name).
    private var nodeOf: [Int32] = []
    /// Per id number: the root of the group it names as preferred id (-1: none).
    private var rootNamed: [Int32] = []
    /// Per id number: the rowid of the `events` row the id is the preferred id of (-1: none).
    private var rowNamed: [Int32] = []
    /// Per node: its parent (itself for a root) and the id number of its group's preferred id.
    private var parent: [Int32] = []
    private var name: [Int32] = []
    /// The ids of `forEachMapping`, once `sortMapping()` has ordered them, and their preferred ids
    /// (found beside the database's work, not while it waits for them).
    private var sortedIDs: [Int32] = []
    private var sortedPreferred: [Int32] = []

    /// A forest with room for about `expectedIDs` ids before it grows.
    init(expectedIDs: Int) {
        // The arrays' room is only reserved (untouched, it takes no memory); the table's is filled in.
        slots = IDSlots(expected: Swift.min(expectedIDs, 1 << 20))
        arena.reserveCapacity(expectedIDs * 12)
        offsets.reserveCapacity(expectedIDs + 1)
        nodeOf.reserveCapacity(expectedIDs)
        rootNamed.reserveCapacity(expectedIDs)
        rowNamed.reserveCapacity(expectedIDs)
        parent.reserveCapacity(expectedIDs)
        name.reserveCapacity(expectedIDs)
    }

    mutating func preferred(of id: String) -> String? {
        guard let number = number(of: id), nodeOf[number] >= 0 else { return nil }
        return text(Int(name[Int(root(nodeOf[number]))]))
    }

    /// Points `id` at the group `preferred` names (made when there is none).
    mutating func map(_ id: String, to preferred: String) throws {
        let number = try intern(id)
        let named = try intern(preferred)
        if nodeOf[number] >= 0 && name[Int(root(nodeOf[number]))] == Int32(named) { return }
        nodeOf[number] = group(named: named)
    }

    /// Points every id of the group `old` names at the group `preferred` names.
    mutating func redirect(from old: String, to preferred: String) throws {
        guard let oldNumber = number(of: old), rootNamed[oldNumber] >= 0 else { return }
        let from = rootNamed[oldNumber]
        let to = group(named: try intern(preferred))
        guard from != to else { return }
        parent[Int(from)] = to
        rootNamed[oldNumber] = -1
    }

    /// The rowid of the `events` row whose preferred id is `id`, if there is one.
    mutating func rowid(named id: String) -> Int64? {
        guard let number = number(of: id), rowNamed[number] >= 0 else { return nil }
        return Int64(rowNamed[number])
    }

    /// Records that the `events` row `rowid` has the preferred id `id` (`nil`: that no row has it).
    /// Throws for a rowid past 32 bits (a fresh store numbers its rows from 1, one per event).
    mutating func setRowid(_ rowid: Int64?, named id: String) throws {
        guard let rowid else {
            if let number = number(of: id) { rowNamed[number] = -1 }
            return
        }
        guard rowid >= 0 && rowid <= Int64(Int32.max) else {
            throw QuakeBakeError("the id directory keeps rowids of up to 32 bits, not \(rowid)")
        }
        rowNamed[try intern(id)] = Int32(rowid)
    }

    /// Orders the ids that point at a group by their bytes (SQLite's BINARY collation), with
    /// their preferred ids, for `forEachMapping`, and frees what only the other operations
    /// need: after it, the forest answers `forEachMapping` alone.
    mutating func sortMapping() {
        // Only the ids' bytes and the links of mapped ids to names are needed from here on.
        slots = IDSlots(expected: 0)
        rootNamed = []
        rowNamed = []
        for node in parent.indices { parent[node] = root(Int32(node)) }
        var ids: [Int32] = []
        ids.reserveCapacity(nodeOf.count)
        for number in nodeOf.indices where nodeOf[number] >= 0 { ids.append(Int32(number)) }
        let offsets = self.offsets
        arena.withUnsafeBufferPointer { all in
            ids.sort { a, b in
                let x = Int(offsets[Int(a)]), xn = Int(offsets[Int(a) + 1]) - x, y = Int(offsets[Int(b)]), yn = Int(offsets[Int(b) + 1]) - y
                let order = xn == 0 || yn == 0 ? 0 : memcmp(all.baseAddress! + x, all.baseAddress! + y, min(xn, yn))
                return order != 0 ? order < 0 : xn < yn
            }
        }
        sortedIDs = ids
        sortedPreferred = ids.map { name[Int(parent[Int(nodeOf[Int($0)])])] }
        nodeOf = []
        parent = []
        name = []
    }

    /// Calls `body` with every id that points at a group and the group's preferred id, in the
    /// order `sortMapping()` made, `batch` pairs at a time (the last call may have fewer), so
    /// that `event_ids` can be written once, front to back, many rows per statement. The bytes
    /// are valid only during each call.
    func forEachMapping(batch: Int, _ body: ([IDMapping]) throws -> Void) rethrows {
        try arena.withUnsafeBufferPointer { all in
            func text(_ number: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[Int(offsets[number]) ..< Int(offsets[number + 1])])
            }
            var pairs: [IDMapping] = []
            pairs.reserveCapacity(batch)
            for (id, preferred) in zip(sortedIDs, sortedPreferred) {
                pairs.append(IDMapping(id: text(Int(id)), preferred: text(Int(preferred))))
                if pairs.count == batch {
                    try body(pairs)
                    pairs.removeAll(keepingCapacity: true)
                }
            }
            if !pairs.isEmpty { try body(pairs) }
        }
    }

    // MARK: Ids

    private func bytes(_ number: Int) -> ArraySlice<UInt8> {
        arena[Int(offsets[number]) ..< Int(offsets[number + 1])]
    }

    private func text(_ number: Int) -> String {
        String(decoding: bytes(number), as: UTF8.self)
    }

    /// The number of `id`, when it is known.
    private func number(of id: String) -> Int? {
        var id = id
        return id.withUTF8 { utf8 in
            arena.withUnsafeBufferPointer { all in
                slots.find(hash: IDSlots.hash(UnsafeRawBufferPointer(utf8))) { filed in
                    let start = Int(offsets[Int(filed)]), count = Int(offsets[Int(filed) + 1]) - start
                    return count == utf8.count && (count == 0 || memcmp(all.baseAddress! + start, utf8.baseAddress!, count) == 0)
                }.map(Int.init)
            }
        }
    }

    /// The number of `id`, given one when it is new. Throws past 4 GB of distinct ids (offsets
    /// are 32-bit to keep the forest small; a catalog of ComCat's few million events takes 40 MB).
    private mutating func intern(_ id: String) throws -> Int {
        if let known = number(of: id) { return known }
        guard arena.count + id.utf8.count <= Int(UInt32.max), offsets.count < Int(Int32.max) else {
            throw QuakeBakeError("the id directory is full: more than 4 GB of distinct event ids in one build")
        }
        let number = offsets.count - 1
        var id = id
        let hash = id.withUTF8 { utf8 in
            self.arena.append(contentsOf: utf8)
            return IDSlots.hash(UnsafeRawBufferPointer(utf8))
        }
        self.offsets.append(UInt32(self.arena.count))
        nodeOf.append(-1)
        rootNamed.append(-1)
        rowNamed.append(-1)
        let arena = self.arena, offsets = self.offsets  // read by a segment that grows, while the table changes
        slots.insert(Int32(number), hash: hash) { filed in
            arena.withUnsafeBytes { IDSlots.hash(UnsafeRawBufferPointer(rebasing: $0[Int(offsets[Int(filed)]) ..< Int(offsets[Int(filed) + 1])])) }
        }
        return number
    }

    // MARK: Groups

    /// The root node of the group id `named` names (a new one when there is none).
    private mutating func group(named: Int) -> Int32 {
        if rootNamed[named] >= 0 { return rootNamed[named] }
        let node = Int32(parent.count)
        parent.append(node)
        name.append(Int32(named))
        rootNamed[named] = node
        return node
    }

    /// Follows parents to the root, halving the path on the way.
    private mutating func root(_ start: Int32) -> Int32 {
        var node = start
        while parent[Int(node)] != node {
            let up = parent[Int(node)]
            parent[Int(node)] = parent[Int(up)]
            node = up
        }
        return node
    }
}

/// Which event every id belongs to, as a union–find forest: each id points at a node,
/// each event (group of ids) has a root node carrying its preferred id, so that a
/// redirect is one pointer change however many ids the event has. About 60 bytes
/// an id. The operations are those of `IDDirectory`, with the same meaning as the
/// `event_ids` table's: a group is known by its preferred id (`rootNamed`), not by
/// where that id itself points, so an id that left its group never takes the group along.
struct IDForest {
    private var nodeOf: [IDKey: Int32] = [:]
    private var parent: [Int32] = []
    private var name: [String] = []
    /// The root of the group each preferred id names.
    private var rootNamed: [IDKey: Int32] = [:]

    /// A forest with room for about `expectedIDs` ids before it grows (at most a million reserved).
    init(expectedIDs: Int) {
        let room = Swift.min(expectedIDs, 1 << 20)
        nodeOf.reserveCapacity(room)
        parent.reserveCapacity(room)
        name.reserveCapacity(room)
        rootNamed.reserveCapacity(room)
    }

    mutating func preferred(of id: String) -> String? {
        nodeOf[IDKey(id)].map { name[Int(root($0))] }
    }

    /// Points `id` at the group `preferred` names (made when there is none).
    mutating func map(_ id: String, to preferred: String) {
        let key = IDKey(id)
        if let node = nodeOf[key], name[Int(root(node))] == preferred { return }
        nodeOf[key] = group(named: preferred)
    }

    /// Points every id of the group `old` names at the group `preferred` names.
    mutating func redirect(from old: String, to preferred: String) {
        guard let from = rootNamed[IDKey(old)] else { return }
        let to = group(named: preferred)
        guard from != to else { return }
        parent[Int(from)] = to
        rootNamed[IDKey(old)] = nil
    }

    /// Every id and its preferred id, in byte order of the id (SQLite's BINARY collation),
    /// so that `event_ids` can be written once, front to back.
    mutating func sortedMapping() -> [(id: String, preferred: String)] {
        let entries = nodeOf
        var rows = entries.map { (id: $0.key.text, preferred: name[Int(root($0.value))]) }
        rows.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return rows
    }

    /// The root node of the group `preferred` names (a new one when there is none).
    private mutating func group(named preferred: String) -> Int32 {
        let key = IDKey(preferred)
        if let node = rootNamed[key] { return node }
        let node = Int32(parent.count)
        parent.append(node)
        name.append(preferred)
        rootNamed[key] = node
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

/// An id as a dictionary key, equal only to the very same bytes (Swift's `String`
/// equality would also join canonically equivalent spellings, which SQLite keeps apart).
private struct IDKey: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: IDKey, b: IDKey) -> Bool {
        a.text == b.text && a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}

/// Which event every id belongs to, as a union–find forest: each id points at a node,
/// each event (group of ids) has a root node carrying its preferred id, so that a
/// redirect is one pointer change however many ids the event has. About 50 bytes
/// an id. The operations are those of `IDDirectory`.
struct IDForest {
    private var nodeOf: [IDKey: Int32] = [:]
    private var parent: [Int32] = []
    private var name: [String] = []

    /// A forest with room for about `expectedIDs` ids before it grows (at most a million reserved).
    init(expectedIDs: Int) {
        let room = Swift.min(expectedIDs, 1 << 20)
        nodeOf.reserveCapacity(room)
        parent.reserveCapacity(room)
        name.reserveCapacity(room)
    }

    mutating func preferred(of id: String) -> String? {
        nodeOf[IDKey(id)].map { name[Int(root($0))] }
    }

    mutating func map(_ id: String, to preferred: String) {
        let key = IDKey(id)
        guard key == IDKey(preferred) else {
            if let node = nodeOf[key], name[Int(root(node))] == preferred { return }
            nodeOf[key] = group(named: preferred)
            return
        }
        // An id pointed at itself (every new event's own id). Known, it already belongs with the
        // group `preferred` names (its own); new, it starts a group of its own named `preferred`.
        // One look-up that also inserts.
        Self.fillIfNew(&nodeOf[key, default: -1]) {
            let node = Int32(parent.count)
            parent.append(node)
            name.append(preferred)
            return node
        }
    }

    mutating func redirect(from old: String, to preferred: String) {
        guard let node = nodeOf[IDKey(old)] else { return }
        let from = root(node)
        let to = group(named: preferred)
        if from != to { parent[Int(from)] = to }
        name[Int(to)] = preferred
    }

    /// Stores `make()` in `slot` when the slot is new (-1).
    private static func fillIfNew(_ slot: inout Int32, _ make: () -> Int32) {
        if slot < 0 { slot = make() }
    }

    /// Every id and its preferred id, in byte order of the id (SQLite's BINARY collation),
    /// so that `event_ids` can be written once, front to back.
    mutating func sortedMapping() -> [(id: String, preferred: String)] {
        let entries = nodeOf
        var rows = entries.map { (id: $0.key.text, preferred: name[Int(root($0.value))]) }
        rows.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return rows
    }

    /// The root node of the group whose preferred id is `preferred` (the group `preferred` itself
    /// belongs to, or a new one).
    private mutating func group(named preferred: String) -> Int32 {
        if let node = nodeOf[IDKey(preferred)] { return root(node) }
        let node = Int32(parent.count)
        parent.append(node)
        name.append(preferred)
        nodeOf[IDKey(preferred)] = node
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

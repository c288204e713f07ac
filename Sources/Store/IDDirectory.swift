import GRDB

/// Which event every id belongs to: the `event_ids` mapping, as the reconciler
/// reads and changes it.
///
/// Two implementations keep the same mapping: `StoredIDDirectory` works on the
/// table itself (incremental runs); `MemoryIDDirectory` keeps it in memory while a
/// fresh store is built and writes the table once at the end (random B-tree
/// inserts into `event_ids` and its index would otherwise cost about 12 µs an event).
protocol IDDirectory: AnyObject {
    /// The preferred id that `id` points at, if `id` is known.
    func preferred(of id: String) throws -> String?
    /// Points `id` at `preferred` (only `id`; ids pointing elsewhere stay).
    func map(_ id: String, to preferred: String) throws
    /// Points every id that points at `old` at `preferred` instead.
    func redirect(from old: String, to preferred: String) throws
}

/// The mapping read and written in `event_ids` directly.
final class StoredIDDirectory: IDDirectory {
    private let find: RawStatement
    private let upsert: RawStatement
    private let move: RawStatement

    init(_ db: Database) throws {
        find = try RawStatement(db, "SELECT preferred FROM event_ids WHERE id = ?")
        upsert = try RawStatement(db, """
            INSERT INTO event_ids (id, preferred) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET preferred = excluded.preferred
            """)
        move = try RawStatement(db, "UPDATE event_ids SET preferred = ? WHERE preferred = ?")
    }

    func preferred(of id: String) throws -> String? {
        find.bind(1, id)
        defer { find.reset() }
        return try find.step() ? find.text(0) : nil
    }

    func map(_ id: String, to preferred: String) throws {
        upsert.bind(1, id)
        upsert.bind(2, preferred)
        try upsert.run()
    }

    func redirect(from old: String, to preferred: String) throws {
        move.bind(1, preferred)
        move.bind(2, old)
        try move.run()
    }
}

/// The mapping kept in memory as a union–find forest: each id points at a node,
/// each event (group of ids) has a root node carrying its preferred id, so that a
/// redirect is one pointer change however many ids the event has. About 50 bytes
/// an id. Only for a store that starts empty: it knows nothing of `event_ids`, and
/// `sortedMapping()` gives what to write there at the end.
final class MemoryIDDirectory: IDDirectory {
    private var nodeOf: [IDKey: Int32] = [:]
    private var parent: [Int32] = []
    private var name: [String] = []

    /// A directory with room for about `expectedIDs` ids before it grows (at most a million reserved).
    init(expectedIDs: Int) {
        let room = Swift.min(expectedIDs, 1 << 20)
        nodeOf.reserveCapacity(room)
        parent.reserveCapacity(room)
        name.reserveCapacity(room)
    }

    func preferred(of id: String) -> String? {
        nodeOf[IDKey(id)].map { name[Int(root($0))] }
    }

    func map(_ id: String, to preferred: String) {
        if let node = nodeOf[IDKey(id)], name[Int(root(node))] == preferred { return }
        nodeOf[IDKey(id)] = group(named: preferred)
    }

    func redirect(from old: String, to preferred: String) {
        guard let node = nodeOf[IDKey(old)] else { return }
        let from = root(node)
        let to = group(named: preferred)
        if from != to { parent[Int(from)] = to }
        name[Int(to)] = preferred
    }

    /// Every id and its preferred id, in byte order of the id (SQLite's BINARY collation),
    /// so that `event_ids` can be written once, front to back.
    func sortedMapping() -> [(id: String, preferred: String)] {
        var rows = nodeOf.map { (id: $0.key.text, preferred: name[Int(root($0.value))]) }
        rows.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        return rows
    }

    /// Frees the memory.
    func removeAll() {
        nodeOf = [:]
        parent = []
        name = []
    }

    /// The root node of the group whose preferred id is `preferred` (the group `preferred` itself
    /// belongs to, or a new one).
    private func group(named preferred: String) -> Int32 {
        if let node = nodeOf[IDKey(preferred)] { return root(node) }
        let node = Int32(parent.count)
        parent.append(node)
        name.append(preferred)
        nodeOf[IDKey(preferred)] = node
        return node
    }

    /// Follows parents to the root, halving the path on the way.
    private func root(_ start: Int32) -> Int32 {
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

import QuakeSQLite
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
    /// Writes out what the directory holds back (before the transaction of a source commits).
    func flush() throws
    /// Whether the directory also knows which `events` row each preferred id names (`rowid(named:)`):
    /// a fresh build's `events` has no index on `id` until the end, so its rows are found here.
    var keepsRows: Bool { get }
    /// The rowid of the `events` row named `preferred`, when `keepsRows`.
    func rowid(named preferred: String) throws -> Int64?
    /// Records that row `rowid` (nil: no row) is named `preferred`, when `keepsRows`.
    func setRowid(_ rowid: Int64?, named preferred: String) throws
}

/// The mapping read and written in `event_ids` directly, with its redirects deferred.
///
/// A redirect moves every id of a group to the group's new name: done at once, a chain of N
/// preferred-id changes (each naming the last) moved 1, 2, … N ids, N²/2 row updates (10,000
/// links: 70 s, where a fresh store took 0.12 s). Instead each rename is remembered (`renamed`,
/// old name → new), lookups follow the renames to the end, and `flush()` moves each id once,
/// straight to the end of its chain: linear. A renamed name that is named again (a version's own
/// id taken back, or a rename from or to a name already renamed) flushes first, so that rows
/// written after it mean what they say; so does holding `flushAt` renames. The table ends the
/// same as with redirects done at once (StoreTests compare stores built fresh and incrementally).
final class StoredIDDirectory: IDDirectory {
    private let find: RawStatement
    private let upsert: RawStatement
    private let move: RawStatement
    /// Preferred ids renamed since the last flush: old → new (follow to the end of the chain).
    private var renamed: [String: String] = [:]
    /// The most renames held before they are written (memory: a few hundred bytes each).
    static let flushAt = 100_000

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
        return try find.step() ? resolve(find.text(0) ?? "") : nil
    }

    func map(_ id: String, to preferred: String) throws {
        if renamed[preferred] != nil { try flush() }
        upsert.bind(1, id)
        upsert.bind(2, preferred)
        try upsert.run()
    }

    func redirect(from old: String, to preferred: String) throws {
        guard old != preferred else { return }
        if renamed[old] != nil || renamed[preferred] != nil { try flush() }
        renamed[old] = preferred
        if renamed.count >= Self.flushAt { try flush() }
    }

    func flush() throws {
        for old in Array(renamed.keys) {
            move.bind(1, resolve(old))
            move.bind(2, old)
            try move.run()
        }
        renamed.removeAll()
    }

    /// Where `name` ends after the renames held; the chain is shortened on the way (path compression).
    private func resolve(_ name: String) -> String {
        var end = name
        while let next = renamed[end] { end = next }
        var step = name
        while let next = renamed[step], next != end {
            renamed[step] = end
            step = next
        }
        return end
    }

    /// A stored `events` table finds its rows by its own index on `id`.
    var keepsRows: Bool { false }
    func rowid(named preferred: String) -> Int64? { nil }
    func setRowid(_ rowid: Int64?, named preferred: String) {}
}

/// The mapping kept in memory (an `IDForest`) while a fresh store is built. Only for a
/// store that starts empty: it knows nothing of `event_ids`, and `sortedMapping()` gives
/// what to write there at the end.
final class MemoryIDDirectory: IDDirectory {
    /// A struct worked on through `mutating` methods: Swift checks exclusive access once per
    /// call, not on every use of each stored property as it would in this class.
    private var forest: IDForest

    /// A directory with room for about `expectedIDs` ids before it grows (at most a million reserved).
    init(expectedIDs: Int) {
        forest = IDForest(expectedIDs: expectedIDs)
    }

    func preferred(of id: String) -> String? {
        forest.preferred(of: id)
    }

    func map(_ id: String, to preferred: String) throws {
        try forest.map(id, to: preferred)
    }

    func redirect(from old: String, to preferred: String) throws {
        try forest.redirect(from: old, to: preferred)
    }

    /// The forest is written to `event_ids` once, at the end of the build (`forEachMapping`).
    func flush() {}

    var keepsRows: Bool { true }

    func rowid(named preferred: String) -> Int64? {
        forest.rowid(named: preferred)
    }

    func setRowid(_ rowid: Int64?, named preferred: String) throws {
        try forest.setRowid(rowid, named: preferred)
    }

    /// Orders the mapping for `forEachMapping` and frees the rest (see `IDForest.sortMapping()`:
    /// nothing but `forEachMapping` may follow); it needs no
    /// database, so it runs beside other work.
    func sortMapping() {
        forest.sortMapping()
    }

    /// Every id and its preferred id, in byte order of the id (SQLite's BINARY collation),
    /// once `sortMapping()` has run, `batch` at a time, so that `event_ids` can be written once,
    /// front to back (see `IDForest.forEachMapping`).
    func forEachMapping(batch: Int, _ body: ([IDMapping]) throws -> Void) rethrows {
        try forest.forEachMapping(batch: batch, body)
    }

    /// Frees the memory.
    func removeAll() {
        forest = IDForest(expectedIDs: 0)
    }
}

/// An id and its preferred id, as bytes lent for the duration of one call.
struct IDMapping {
    let id: UnsafeBufferPointer<UInt8>
    let preferred: UnsafeBufferPointer<UInt8>
}

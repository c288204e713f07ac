import QuakeSQLite
import GRDB
import QuakeCatalog

/// Applies one version of one event to the store, by the store's rules:
///
/// 1. **One quake, one row.** A version is the same quake as a stored event or
///    tombstone when one's preferred id is among the other's `ids` (that is how a
///    preferred-id change looks: the new preferred event lists the old preferred
///    id). Those incumbents and the new version are one quake. Stored events are
///    found through `event_ids`, which remembers every id ever seen.
/// 1b. **A shared secondary id merges nothing.** Two live events can both list one
///    secondary id (a contributing network's id associated with one and later with
///    the other). They stay two events; the id belongs, in `event_ids`, to the
///    claimant with the newest `updated`, and moves when a newer claimant comes.
/// 2. **Newest `updated` wins, strictly.** The new version replaces the
///    incumbents only when its `updated` is greater than every incumbent's. An
///    older version, or one exactly as old (a tie, even with different content),
///    changes nothing: the first-indexed version of a given `updated` stands. This
///    is deterministic because sources are indexed in a fixed order (archive
///    arrival order, then files in the order given).
/// 3. **Deletions are versions too.** A winning deletion (`status` "deleted")
///    removes the row and leaves a tombstone with its `updated`, so an older
///    version arriving later stays out; a newer version brings the event back.
/// 4. **Merges.** When the incumbents are more than one (a preferred-id change,
///    or a version whose ids join two stored events), the winner keeps the quake
///    and the others go; all their ids then point at the winner's id.
///
/// Among incumbents of equal `updated`, the one named by the new version's id
/// stands first, then a live event before a tombstone, then the smaller id.
final class EventReconciler {
    /// What one version did.
    enum Outcome { case inserted, updated, unchanged, merged, deleted }

    /// A stored version the new one meets: a live row or a tombstone.
    private struct Incumbent {
        let id: String
        let updated: Int64
        /// The row in `events`; `nil` for a tombstone.
        let rowid: Int64?
        /// Every id of the stored version, comma-wrapped (`,a,b,`).
        let ids: String

        /// Whether a version with preferred id `preferred` and ids `claimed` is the same quake:
        /// one's preferred id is among the other's ids, compared id by id (`CommaList.contains`).
        func isSameQuake(asPreferred preferred: String, claiming claimed: [String]) -> Bool {
            claimed.contains(id) || CommaList.contains(ids, preferred)
        }
    }

    /// A secondary id the new version shares with another quake.
    private struct SharedID {
        let id: String
        /// The other quake, which holds the id now.
        let holder: Incumbent
    }

    private let directory: any IDDirectory
    private let findEvent: RawStatement
    private let findRow: RawStatement
    private let findTombstone: RawStatement
    private var insertEvent: EventRowWriter
    private var updateEvent: EventRowWriter
    private let deleteEvent: RawStatement
    private let deleteTombstone: RawStatement
    private let saveTombstone: RawStatement
    private let recordedAt: String
    /// Where rows lie, while a fresh store is built (its R-tree is packed from it at the end).
    private let points: PointLog?

    /// Prepares the statements on `db`; ids are looked up and recorded in `directory`, and
    /// row positions in `points` when given. `recordedAt` stamps tombstones (ISO 8601).
    init(_ db: Database, directory: any IDDirectory, points: PointLog?, recordedAt: String) throws {
        self.directory = directory
        self.points = points
        findEvent = try RawStatement(db, "SELECT rowid, updated, ids FROM events WHERE id = ?")
        findRow = try RawStatement(db, "SELECT rowid, updated, ids FROM events WHERE rowid = ?")
        findTombstone = try RawStatement(db, "SELECT updated, ids FROM tombstones WHERE id = ?")
        insertEvent = EventRowWriter(try RawStatement(db, EventRow.insertSQL))
        updateEvent = EventRowWriter(try RawStatement(db, EventRow.updateSQL))
        deleteEvent = try RawStatement(db, "DELETE FROM events WHERE rowid = ?")
        deleteTombstone = try RawStatement(db, "DELETE FROM tombstones WHERE id = ?")
        saveTombstone = try RawStatement(db, """
            INSERT INTO tombstones (id, ids, updated, source, recorded_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET ids = excluded.ids, updated = excluded.updated,
                source = excluded.source, recorded_at = excluded.recorded_at
            """)
        self.recordedAt = recordedAt
    }

    /// Applies `event`, read from `source`, and says what it did.
    func apply(_ event: QuakeEvent, source: String) throws -> Outcome {
        let claimed = Self.claimedIDs(of: event)
        var preferred: [String] = []
        var incumbents: [Incumbent] = []
        var others: [String: Incumbent] = [:]
        var shared: [SharedID] = []
        var everyIDKnown = true
        for id in claimed {
            guard let known = try directory.preferred(of: id) else {
                everyIDKnown = false
                continue
            }
            let isOwnID = id == event.id
            if isOwnID && known != event.id {
                // The version's own id, held by a quake that no longer lists it: it is taken
                // back (a version's preferred id is always its own), and a row of that name is
                // the version's incumbent.
                everyIDKnown = false
                if let own = try incumbent(named: event.id) {
                    preferred.append(event.id)
                    incumbents.append(own)
                }
            }
            if preferred.contains(known) { continue }
            if let other = others[known] {
                if !isOwnID { shared.append(SharedID(id: id, holder: other)) }
                continue
            }
            guard let stored = try incumbent(named: known) else { continue }
            if stored.isSameQuake(asPreferred: event.id, claiming: claimed) {
                preferred.append(known)
                incumbents.append(stored)
            } else {
                others[known] = stored
                if !isOwnID { shared.append(SharedID(id: id, holder: stored)) }
            }
        }
        // Ids of this version that stay with another quake: those it shares with a newer claimant.
        let keptAway = Set(shared.filter { $0.holder.updated >= event.updated }.map(\.id))
        let ids = claimed.filter { !keptAway.contains($0) }

        if let standing = standing(incumbents, newID: event.id), incumbents[standing].updated >= event.updated {
            let sharedIDs = Set(shared.map(\.id))
            return try keep(incumbents[standing], over: incumbents, joining: everyIDKnown ? [] : ids.filter { !sharedIDs.contains($0) })
        }
        let live = incumbents.filter { $0.rowid != nil }
        if event.isDeleted {
            for stored in incumbents {
                if let rowid = stored.rowid { try remove(rowid, named: stored.id) } else if stored.id != event.id { try removeTombstone(stored.id) }
            }
        } else {
            let reused = live.first { $0.id == event.id } ?? live.first
            for stored in incumbents where stored.id != reused?.id {
                if let rowid = stored.rowid { try remove(rowid, named: stored.id) } else { try removeTombstone(stored.id) }
            }
            if let reused, let rowid = reused.rowid {
                try updateEvent.write(event, rowid: rowid)
                points?.record(rowid: rowid, longitude: event.longitude ?? 0, latitude: event.latitude ?? 0)
                try renamed(row: rowid, from: reused.id, to: event.id)
            }
        }
        if event.isDeleted || live.isEmpty { try store(event, source: source) }
        // The version's own ids first, so that its own id names its group before the others join it.
        if !(everyIDKnown && preferred == [event.id] && shared.isEmpty) {
            for id in ids { try map(id, to: event.id) }
        }
        for stored in incumbents where stored.id != event.id { try redirect(from: stored.id, to: event.id) }
        if event.isDeleted { return .deleted }
        if live.isEmpty { return .inserted }
        return incumbents.count == 1 && live[0].id == event.id ? .updated : .merged
    }

    /// Writes out what the id directory holds back (its deferred redirects), before the source commits.
    func flush() throws {
        try directory.flush()
    }

    /// Every id `event` claims, each once, preferred first: `QuakeEvent.allIds`, without the
    /// set it builds when the event has a few ids (as nearly every one has: a look along the
    /// list is cheaper); a long list (a file that lists thousands) goes through a set, so that
    /// it costs its length, not its square.
    private static func claimedIDs(of event: QuakeEvent) -> [String] {
        var all = [event.id]
        if event.ids.count > 16 {
            var seen: Set<String> = [event.id]
            for other in event.ids where !other.isEmpty && seen.insert(other).inserted { all.append(other) }
            return all
        }
        for other in event.ids where !other.isEmpty && !all.contains(other) { all.append(other) }
        return all
    }

    /// The incumbent stored under preferred id `id`, if any.
    private func incumbent(named id: String) throws -> Incumbent? {
        if let live = try liveRow(named: id) { return live }
        findTombstone.bind(1, id)
        defer { findTombstone.reset() }
        if try findTombstone.step() {
            return Incumbent(id: id, updated: findTombstone.int64(0), rowid: nil, ids: findTombstone.text(1) ?? "")
        }
        return nil
    }

    /// The row of `events` named `id`, if any: found through the table's index on `id`, or, in a
    /// fresh build (whose `events` gets that index only at the end), through the directory.
    private func liveRow(named id: String) throws -> Incumbent? {
        let find: RawStatement
        if directory.keepsRows {
            guard let rowid = try directory.rowid(named: id) else { return nil }
            find = findRow
            find.bind(1, rowid)
        } else {
            find = findEvent
            find.bind(1, id)
        }
        defer { find.reset() }
        guard try find.step() else { return nil }
        return Incumbent(id: id, updated: find.int64(1), rowid: find.int64(0), ids: find.text(2) ?? "")
    }

    /// The index of the incumbent that stands against a new version named `newID`: the newest,
    /// then the one named `newID`, then a live row before a tombstone, then the smaller id.
    private func standing(_ incumbents: [Incumbent], newID: String) -> Int? {
        incumbents.indices.max { a, b in
            let x = incumbents[a], y = incumbents[b]
            if x.updated != y.updated { return x.updated < y.updated }
            if (x.id == newID) != (y.id == newID) { return y.id == newID }
            if (x.rowid != nil) != (y.rowid != nil) { return y.rowid != nil }
            return x.id > y.id
        }
    }

    /// The stored `winner` stands: the other incumbents join it, and so do `newIDs` (ids of a
    /// losing version not yet known).
    private func keep(_ winner: Incumbent, over incumbents: [Incumbent], joining newIDs: [String]) throws -> Outcome {
        var removedLive = false
        for stored in incumbents where stored.id != winner.id {
            if let rowid = stored.rowid { try remove(rowid, named: stored.id); removedLive = true } else { try removeTombstone(stored.id) }
            try redirect(from: stored.id, to: winner.id)
        }
        for id in newIDs { try map(id, to: winner.id) }
        if incumbents.count == 1 { return .unchanged }
        return winner.rowid == nil && removedLive ? .deleted : .merged
    }

    /// Stores a version nothing stands against: a new row, or a tombstone for a deletion.
    private func store(_ event: QuakeEvent, source: String) throws {
        if event.isDeleted {
            try recordTombstone(event, source: source)
        } else {
            try insertEvent.write(event)
            let rowid = insertEvent.lastInsertRowid
            points?.record(rowid: rowid, longitude: event.longitude ?? 0, latitude: event.latitude ?? 0)
            if directory.keepsRows { try directory.setRowid(rowid, named: event.id) }
        }
    }

    /// Deletes row `rowid`, named `id`.
    private func remove(_ rowid: Int64, named id: String) throws {
        deleteEvent.bind(1, rowid)
        try deleteEvent.run()
        points?.remove(rowid: rowid)
        if directory.keepsRows { try directory.setRowid(nil, named: id) }
    }

    /// Row `rowid`, named `old`, now holds a version named `new` (the same name, or a preferred-id change).
    private func renamed(row rowid: Int64, from old: String, to new: String) throws {
        guard directory.keepsRows, old != new else { return }
        try directory.setRowid(nil, named: old)
        try directory.setRowid(rowid, named: new)
    }

    private func removeTombstone(_ id: String) throws {
        deleteTombstone.bind(1, id)
        try deleteTombstone.run()
    }

    private func recordTombstone(_ event: QuakeEvent, source: String) throws {
        saveTombstone.bind(1, event.id)
        saveTombstone.bind(2, CommaList.format(event.ids))
        saveTombstone.bind(3, event.updated)
        saveTombstone.bind(4, source)
        saveTombstone.bind(5, recordedAt)
        try saveTombstone.run()
    }

    private func map(_ id: String, to preferred: String) throws {
        try directory.map(id, to: preferred)
    }

    private func redirect(from old: String, to preferred: String) throws {
        try directory.redirect(from: old, to: preferred)
    }
}

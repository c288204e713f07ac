import Foundation
import GRDB
import Logging
import QuakeCatalog
import QuakeCommon

/// What indexing the archive's details did to the store's `details` table.
public struct DetailCounts: Sendable, Hashable {
    /// Rows written (new, or made from a newer archive entry).
    public var stored = 0
    /// Rows removed: the quake was deleted or merged away, or its details dropped.
    public var removed = 0
    /// Archive entries that could not be read (a damaged file): named in a warning, left out.
    public var unreadable = 0

    public init() {}

    /// Rows that changed.
    public var changed: Int { stored + removed }
}

/// Puts the fetch archive's details (`ArchivedDetail`) into the store's `details` table, by the
/// rules of the events they belong to:
///
/// - A quake's details are those of the newest archive entry (by arrival) made for any id that
///   now leads to its row: an entry made for an id is found through `event_ids`, so a quake
///   whose preferred id changed, or that two quakes merged into, keeps the details fetched under
///   its older id until newer ones come, and a drop (no longer significant) removes them.
/// - A quake without a row in `events` (deleted: its ids lead to a tombstone; or never stored)
///   has none: its row in `details` goes with it.
///
/// The table is brought to that state whole, each time (rows whose entry is already the one
/// stored are left as they are), so the result depends only on the store's events and the
/// archive, and a rebuild gives the same rows as the runs that led to it.
struct DetailIndexer {
    let db: Database
    let logger: Logger

    /// Most bytes an archived detail answer or file may inflate to.
    static let maximumFileBytes = 256 << 20

    func apply(_ entries: [ArchivedDetail]) throws -> DetailCounts {
        var counts = DetailCounts()
        // The newest entry per id, then per quake (the row its id leads to).
        var newestByID: [String: ArchivedDetail] = [:]
        for entry in entries where (newestByID[entry.eventID]?.sequence ?? .min) < entry.sequence { newestByID[entry.eventID] = entry }
        var wanted: [String: ArchivedDetail] = [:]
        let resolve = try db.makeStatement(sql: """
            SELECT e.id FROM event_ids i JOIN events e ON e.id = i.preferred WHERE i.id = ?
            UNION ALL SELECT id FROM events WHERE id = ? LIMIT 1
            """)
        for (id, entry) in newestByID {
            guard let row = try String.fetchOne(resolve, arguments: [id, id]) else { continue }
            if (wanted[row]?.sequence ?? .min) < entry.sequence { wanted[row] = entry }
        }
        let stored = Dictionary(try Row.fetchAll(db, sql: "SELECT id, archive FROM details").map { ($0["id"] as String, $0["archive"] as Int64) },
                                uniquingKeysWith: { a, _ in a })
        for (id, _) in stored where wanted[id].map({ $0.isDrop }) ?? true {
            try db.execute(sql: "DELETE FROM details WHERE id = ?", arguments: [id])
            counts.removed += 1
        }
        for (id, entry) in wanted.sorted(by: { $0.key < $1.key }) where !entry.isDrop && stored[id] != entry.sequence {
            guard let detail = summary(entry, as: id) else {
                counts.unreadable += 1
                continue
            }
            try db.execute(sql: """
                INSERT INTO details (id, updated, event_updated, fetched_at, archive, summary) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET updated = excluded.updated, event_updated = excluded.event_updated,
                    fetched_at = excluded.fetched_at, archive = excluded.archive, summary = excluded.summary
                """, arguments: [id, detail.updated, entry.updated, entry.fetchedAt, entry.sequence, detail.json.text])
            counts.stored += 1
        }
        return counts
    }

    /// The summary of `entry` for the quake stored as `id`; nil, with a warning, when its detail
    /// answer cannot be read. A content file that cannot be read is left out with the reason.
    private func summary(_ entry: ArchivedDetail, as id: String) -> QuakeDetail? {
        guard let file = entry.file else { return nil }
        let document: DetailDocument
        do {
            document = try DetailDocument.parse(try Self.read(file))
        } catch {
            logger.warning("details of \(entry.eventID): \(file.path) cannot be read (\(ErrorText.message(error))); left out")
            return nil
        }
        var contents: [String: ContentOutcome] = [:]
        for content in entry.contents {
            if let file = content.file {
                do {
                    contents[content.request.key] = .received(try Self.read(file))
                } catch {
                    contents[content.request.key] = .leftOut("the archived file \(file.lastPathComponent) cannot be read (\(ErrorText.message(error)))")
                }
            } else {
                contents[content.request.key] = .leftOut(content.leftOutReason ?? "not fetched")
            }
        }
        var detail = QuakeDetail.summarize(document, contents: contents)
        detail.id = id
        return detail
    }

    /// An archived file (gzip), inflated.
    private static func read(_ file: URL) throws -> Data {
        try Gzip.decompress(try Data(contentsOf: file), limit: maximumFileBytes)
    }
}

import QuakeCommon

/// What indexing did to the events it read.
public struct IndexCounts: Sendable, Hashable {
    /// New events (also deleted events brought back by a newer version).
    public var inserted = 0
    /// Stored events replaced by a newer version under the same id.
    public var updated = 0
    /// Versions that changed nothing: older than, or as old as, the stored one.
    public var unchanged = 0
    /// Versions that joined stored events under a new preferred id, or joined two stored events into one.
    public var merged = 0
    /// Deletions that won: the event left `events` (or was never stored) and a tombstone records it.
    public var deleted = 0
    /// Items that could not be stored (see the `rejects` table), whole damaged documents included.
    public var rejected = 0

    public init() {}

    /// Versions that changed the stored catalog.
    public var changed: Int { inserted + updated + merged + deleted }

    static func += (lhs: inout IndexCounts, rhs: IndexCounts) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
        lhs.merged += rhs.merged
        lhs.deleted += rhs.deleted
        lhs.rejected += rhs.rejected
    }
}

/// What happened to one source.
public struct SourceReport: Sendable, Hashable {
    /// How a source ended.
    public enum Outcome: Sendable, Hashable {
        /// Read and stored in one transaction (bad items are in `rejects`).
        case indexed
        /// The same body (by SHA-256; a streamed file by its bytes as stored) was indexed before: nothing done.
        case alreadyIndexed
        /// The file could not be read at all; nothing recorded, it is tried again next run.
        case unreadable(String)
    }

    /// The file path, or `archive page N (url)`.
    public var name: String
    public var outcome: Outcome
    /// Valid events read from it.
    public var events = 0
    public var counts = IndexCounts()
    /// Damage to the document as a whole (broken JSON, truncated, not a catalog, a service error
    /// answer). Events read before the damage are still stored.
    public var problem: String?
    /// The most common kinds of reject (`Reject.kind`) with their counts, most common first
    /// (ties by kind), at most three.
    public var commonRejects: [RejectKindCount] = []
    /// Links (`url`, `detail`) that were not http or https, dropped from events stored without them (`WebLink`).
    public var droppedLinks = 0
    /// The first of them, in words (which event, which field, what it held).
    public var firstDroppedLink: String?

    public init(name: String, outcome: Outcome) {
        self.name = name
        self.outcome = outcome
    }
}

/// How often one kind of reject occurred in a source.
public struct RejectKindCount: Sendable, Hashable {
    public var kind: String
    public var count: Int
}

/// What an `index` run did.
public struct IndexSummary: Sendable, Hashable {
    /// Every source, in the order given.
    public var sources: [SourceReport] = []
    /// True when the store was built afresh (a new store, or `rebuild`) rather than updated.
    public var builtAfresh = false
    /// Wall-clock seconds the run took.
    public var seconds = 0.0
    /// What became of the archive's details.
    public var details = DetailCounts()

    public init() {}

    /// Totals over all sources.
    public var counts: IndexCounts {
        var total = IndexCounts()
        for source in sources { total += source.counts }
        return total
    }

    /// Valid events read over all sources.
    public var events: Int { sources.reduce(0) { $0 + $1.events } }

    /// Messages for sources that could not be read at all.
    public var unreadable: [String] {
        sources.compactMap { if case .unreadable(let message) = $0.outcome { return message } else { return nil } }
    }

    /// Messages for sources that were read but damaged as a whole.
    public var damaged: [String] { sources.compactMap(\.problem) }

    /// Sources read in full whose every item was refused (at least one): nothing of them is stored.
    public var allRefused: [SourceReport] {
        sources.filter { $0.outcome == .indexed && $0.problem == nil && $0.events == 0 && $0.counts.rejected > 0 }
    }

    /// Why nothing was indexed, when nothing was: no sources, or every one indexed before.
    public var nothingToIndex: String? {
        if sources.isEmpty { return "nothing to index: the archive has no pages and no --from file was given" }
        if sources.allSatisfy({ $0.outcome == .alreadyIndexed }) {
            return "nothing to index: \(sources.count == 1 ? "the source was" : "all \(Format.count(sources.count)) sources were") indexed before (same content)"
        }
        return nil
    }
}

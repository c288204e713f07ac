import Foundation
import GRDB
import Logging
import QuakeCatalog
import QuakeCommon

/// `quake-bake index`: turns archived pages and ComCat files into the SpatiaLite store.
///
/// The rules (see also docs/store.md, the store contract):
/// - One row per quake: a version joins the stored events or tombstones whose preferred
///   id it lists or which list its preferred id (`event_ids` remembers every id ever
///   seen), so a preferred-id change merges instead of duplicating; a secondary id two
///   quakes share merges nothing (see `EventReconciler`).
/// - Newest `updated` wins, strictly: an older version, or one exactly as old (a tie,
///   even with other content), changes nothing; the first indexed version of a given
///   `updated` stands. Sources are applied in the order given (the archive in arrival
///   order, then files), so the outcome is deterministic.
/// - A winning deletion removes the row and leaves a tombstone; only a newer version
///   brings the event back.
/// - Bad items go to `rejects` with a reason and the raw text; the rest is stored.
///
/// The caller holds the `WorkspaceLock`: only one writer may work on a store.
public enum Indexer {
    /// Indexes `sources`, in order, into the store at `store`.
    ///
    /// When the store exists it is updated one transaction per source (WAL): a crash
    /// or a failure leaves it as it was before that source. When it does not, it is
    /// built afresh in bulk beside its final path and renamed into place, so no
    /// half-built store is ever visible. A source whose body was indexed before
    /// (same SHA-256) is skipped; one that cannot be read is reported and skipped.
    ///
    /// - Throws: when the store itself cannot be opened or written (the sources after
    ///   the failing one are not indexed).
    /// Given `details` (the fetch archive's, `Archive.details`), the store's `details` table is
    /// brought to what they and the events say (see `DetailIndexer`); nil leaves it as it is.
    public static func index(_ sources: [IndexSource], details: [ArchivedDetail]? = nil, store: URL,
                             progress: any ProgressSink = Progress.silent,
                             logger: Logger = Logger(label: "index")) throws -> IndexSummary {
        if FileManager.default.fileExists(atPath: store.path) {
            return try update(sources, details: details, store: store, progress: progress, logger: logger)
        }
        return try rebuild(sources, details: details, store: store, progress: progress, logger: logger)
    }

    /// Builds a fresh store from `sources` (for `index --rebuild`: the whole archive) in a
    /// scratch file beside `store`, then renames it over `store` atomically. Until the
    /// rename, readers see the old store; after it, the new one.
    public static func rebuild(_ sources: [IndexSource], details: [ArchivedDetail]? = nil, store: URL,
                               progress: any ProgressSink = Progress.silent,
                               logger: Logger = Logger(label: "index")) throws -> IndexSummary {
        FreedMemory.limitRetention()  // the memory budget: 300 MB at three million events
        let started = Date()
        let directory = store.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        removeDebris(of: store)
        let scratch = directory.appendingPathComponent(".\(store.lastPathComponent).\(getpid())\(AtomicFile.temporarySuffix)")
        var summary: IndexSummary
        do {
            // A small page cache: the table is only appended to while it loads, and SQLite's index
            // sorts take memory in proportion to it (at 440k with 16 KB pages: 4 MB 116 MB peak,
            // 8 MB 132 MB and no faster; 2 MB slower).
            let database = try SpatiaLiteDatabase(url: scratch, mode: .bulk, cacheMiB: 4)
            do {
                summary = try database.queue.inDatabase { db in
                    try StoreSchema.createForBulkBuild(db)
                    let bulk = try BulkBuild(db)
                    let expected = expectedEvents(sources)
                    let directory = MemoryIDDirectory(expectedIDs: expected * 3 / 2)
                    let points = PointLog(expectedRows: expected)
                    var summary = try IndexRun(db, directory: directory, points: points, logger: logger)
                        .run(sources, progress: progress)
                    progress.update(ProgressSnapshot(stage: "index", done: summary.events, total: summary.events,
                                                     unit: "events", detail: "building indexes"))
                    try db.inTransaction {
                        try bulk.finish(db, directory: directory, points: points, logger: logger)
                        return .commit
                    }
                    if let details { summary.details = try applyDetails(details, db, logger: logger) }
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    summary.builtAfresh = true
                    return summary
                }
                try database.close()
            } catch {
                try? database.close()
                throw error
            }
            try settle(scratch)
            retireWriteAheadLog(of: store)
            guard rename(scratch.path, store.path) == 0 else {
                throw QuakeBakeError("cannot rename \(scratch.path) to \(store.path): \(String(cString: strerror(errno)))")
            }
            AtomicFile.syncDirectory(directory)
        } catch {
            removeDebris(of: store)
            progress.finish()
            throw error
        }
        progress.finish()
        summary.seconds = Date().timeIntervalSince(started)
        log(summary, logger: logger)
        return summary
    }

    private static func update(_ sources: [IndexSource], details: [ArchivedDetail]?, store: URL, progress: any ProgressSink,
                               logger: Logger) throws -> IndexSummary {
        let started = Date()
        removeDebris(of: store)
        let database: SpatiaLiteDatabase
        do {
            database = try SpatiaLiteDatabase(url: store, mode: .write, cacheMiB: 64)
        } catch {
            throw QuakeBakeError("\(store.path): cannot open the store (\(error)); `quake-bake index --rebuild` builds a fresh one")
        }
        defer { try? database.close() }
        var summary: IndexSummary
        do {
            summary = try database.queue.inDatabase { db in
                do {
                    try StoreSchema.migrate(db, path: store.path)
                } catch let error as DatabaseError {
                    throw QuakeBakeError("\(store.path): cannot open the store (\(error)); `quake-bake index --rebuild` builds a fresh one")
                }
                var summary = try IndexRun(db, directory: StoredIDDirectory(db), logger: logger).run(sources, progress: progress)
                if let details { summary.details = try applyDetails(details, db, logger: logger) }
                return summary
            }
        } catch {
            progress.finish()
            throw error
        }
        progress.finish()
        summary.seconds = Date().timeIntervalSince(started)
        log(summary, logger: logger)
        return summary
    }

    /// Brings the `details` table to what `details` and the events say, in one transaction.
    private static func applyDetails(_ details: [ArchivedDetail], _ db: Database, logger: Logger) throws -> DetailCounts {
        var counts = DetailCounts()
        do {
            try db.inTransaction(.immediate) {
                counts = try DetailIndexer(db: db, logger: logger).apply(details)
                return .commit
            }
        } catch let error as DatabaseError {
            throw QuakeBakeError("the store could not take the archive's details (\(error)); its events are indexed, its details as they were")
        }
        return counts
    }

    /// Runs `body` and logs (debug) how long it took, and the CPU time of the calling thread.
    static func measure<T>(_ what: String, _ logger: Logger, _ body: () throws -> T) rethrows -> T {
        let start = Date(), cpu = threadCPUSeconds()
        defer {
            logger.debug("\(what) in \(String(format: "%.2f", Date().timeIntervalSince(start))) s (CPU \(String(format: "%.2f", threadCPUSeconds() - cpu)) s)")
        }
        return try body()
    }

    /// Events the sources hold, as far as known in advance; for a file, a generous guess from its
    /// size (40 bytes an event: gzip CSV takes some 75), at least 20,000; in all at most 20 million
    /// (many big files must not ask for more room than a machine has). The in-memory tables of a
    /// fresh build reserve this much room, which costs no memory while unused, so that they do not
    /// grow by doubling (holding old and new at once) at the peak of a big file.
    private static func expectedEvents(_ sources: [IndexSource]) -> Int {
        let total = sources.reduce(0) { total, source in
            if let known = source.expectedEvents { return total + known }
            return total + max((InputFile.regularFileSize(of: source.file) ?? 0) / 40, 20_000)
        }
        return min(total, 20_000_000)
    }

    /// Flushes the finished scratch file to disk before it is renamed into place.
    private static func settle(_ file: URL) throws {
        let handle = try FileHandle(forUpdating: file)
        defer { try? handle.close() }
        try handle.synchronize()
    }

    /// Folds the old store's write-ahead log into it and removes the log, so that the
    /// file renamed over it does not meet a stale log.
    private static func retireWriteAheadLog(of store: URL) {
        guard FileManager.default.fileExists(atPath: store.path) else { return }
        do {
            let old = try SpatiaLiteDatabase(url: store, mode: .write)
            _ = try old.queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            try old.close()
        } catch {
            // A store that cannot even be opened is being replaced anyway; its log goes with it.
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
    }

    /// Removes scratch files a killed build left beside `store`.
    private static func removeDebris(of store: URL) {
        let directory = store.deletingLastPathComponent()
        let prefix = ".\(store.lastPathComponent)."
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(prefix) && name.contains(AtomicFile.temporarySuffix) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private static func log(_ summary: IndexSummary, logger: Logger) {
        let c = summary.counts
        let skipped = summary.sources.filter { $0.outcome == .alreadyIndexed }.count
        let rate = summary.seconds > 0 ? Int(Double(summary.events) / summary.seconds) : 0
        let details = summary.details.changed > 0
            ? "; details: \(Format.count(summary.details.stored, "quake")) stored, \(Format.count(summary.details.removed)) removed" : ""
        if let nothing = summary.nothingToIndex {
            logger.info("\(nothing)\(details)")
            return
        }
        // Every source unreadable: each was named as it was met, and there is nothing else to say.
        if summary.unreadable.count == summary.sources.count { return }
        logger.info("""
            \(summary.builtAfresh ? "built" : "updated") the store from \(Format.count(summary.sources.count, "source"))\
            \(skipped > 0 ? " (\(Format.count(skipped)) already indexed)" : ""): \
            \(Format.count(summary.events, "event")) read, \(Format.count(c.inserted)) inserted, \
            \(Format.count(c.updated)) updated, \(Format.count(c.unchanged)) unchanged, \(Format.count(c.merged)) merged, \
            \(Format.count(c.deleted)) deleted, \(Format.count(c.rejected)) rejected \
            in \(String(format: "%.1f", summary.seconds)) s (\(Format.count(rate)) events/s)\(details)
            """)
    }
}

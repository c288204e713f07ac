import Foundation
import GRDB
import Logging
import QuakeCatalog
import QuakeCommon

/// One pass over the sources on an open store: each source in its own transaction.
struct IndexRun {
    private let db: Database
    private let logger: Logger
    private let reconciler: EventReconciler
    private let insertReject: RawStatement
    private let insertSource: RawStatement
    private let recordedAt: String

    /// Prepares a pass on `db`, with ids looked up and recorded in `directory` (and row
    /// positions in `points`, for a fresh build).
    init(_ db: Database, directory: any IDDirectory, points: PointLog? = nil, logger: Logger) throws {
        self.db = db
        self.logger = logger
        recordedAt = ISO8601DateFormatter().string(from: Date())
        reconciler = try EventReconciler(db, directory: directory, points: points, recordedAt: recordedAt)
        insertReject = try RawStatement(db, "INSERT INTO rejects (source, position, reason, raw, recorded_at) VALUES (?, ?, ?, ?, ?)")
        insertSource = try RawStatement(db, """
            INSERT INTO sources (name, kind, sha256, events, rejects, inserted, updated, unchanged, merged, deleted, problem, indexed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Indexes `sources` in order and reports on each.
    func run(_ sources: [IndexSource], progress: any ProgressSink) throws -> IndexSummary {
        var indexed = Set(try String.fetchAll(db, sql: "SELECT sha256 FROM sources"))
        let reader = SourceReader(sources, known: indexed)
        defer { reader.stop() }
        let expected = sources.allSatisfy { $0.expectedEvents != nil } ? sources.reduce(0) { $0 + ($1.expectedEvents ?? 0) } : nil
        var summary = IndexSummary()
        let writerStart = threadCPUSeconds()
        var waited = 0.0
        defer {
            let writing = threadCPUSeconds() - writerStart
            logger.debug("CPU: reading \(String(format: "%.2f", reader.cpuSeconds)) s, writing \(String(format: "%.2f", writing)) s; the writer waited \(String(format: "%.2f", waited)) s for the reader")
        }
        var done = 0
        var position = 0
        while let item = waiting(&waited, for: reader) {
            position += 1
            let detail = "source \(Format.count(position))/\(Format.count(sources.count))"
            var report = SourceReport(name: item.source.name, outcome: .indexed)
            switch item.content {
            case .unreadable(let message):
                report.outcome = .unreadable(message)
                logger.error("\(message)")
            case .alreadyIndexed(let sha256) where indexed.contains(sha256):
                report.outcome = .alreadyIndexed
                logger.debug("\(item.source.name): already indexed")
            case .alreadyIndexed:
                report.outcome = .alreadyIndexed
            case .read(let sha256, _, _) where indexed.contains(sha256):
                report.outcome = .alreadyIndexed
                logger.debug("\(item.source.name): already indexed (same content as an earlier source)")
            case .read(let sha256, let page, let excerpt):
                do {
                    try db.inTransaction(.immediate) {
                        try store(page, excerpt: excerpt, from: item.source, sha256: sha256, into: &report) { count in
                            progress.update(ProgressSnapshot(stage: "index", done: done + count, total: expected,
                                                             unit: "events", detail: detail))
                        }
                        return .commit
                    }
                } catch let error as DatabaseError {
                    throw QuakeBakeError("\(item.source.name): the store could not take it (\(error)); nothing of it was stored, and the sources after it were not indexed")
                }
                indexed.insert(sha256)
                releaseFreedMemory()
                done += report.events
                warnAbout(report, page: page)
            }
            progress.update(ProgressSnapshot(stage: "index", done: done, total: expected, unit: "events", detail: detail))
            summary.sources.append(report)
        }
        return summary
    }

    /// The reader's next item, adding the time spent waiting for it to `waited`.
    private func waiting(_ waited: inout Double, for reader: SourceReader) -> SourceReader.Item? {
        let start = Date()
        defer { waited += Date().timeIntervalSince(start) }
        return reader.next()
    }

    /// Stores one parsed source: its events, its rejects and its `sources` row.
    private func store(_ page: CatalogPage, excerpt: String, from source: IndexSource, sha256: String,
                       into report: inout SourceReport, progress: (Int) -> Void) throws {
        report.events = page.events.count
        report.problem = page.problem
        for (n, event) in page.events.enumerated() {
            switch try reconciler.apply(event, source: source.name) {
            case .inserted: report.counts.inserted += 1
            case .updated: report.counts.updated += 1
            case .unchanged: report.counts.unchanged += 1
            case .merged: report.counts.merged += 1
            case .deleted: report.counts.deleted += 1
            }
            if n % 4096 == 4095 { progress(n + 1) }
        }
        var rejects = page.rejects
        if let problem = page.problem {
            rejects.append(Reject(position: "document", reason: problem, raw: excerpt))
        }
        for reject in rejects {
            insertReject.bind(1, source.name)
            insertReject.bind(2, reject.position)
            insertReject.bind(3, reject.reason)
            insertReject.bind(4, reject.raw)
            insertReject.bind(5, recordedAt)
            try insertReject.run()
        }
        report.counts.rejected = rejects.count
        let c = report.counts
        let values: [(Int32, Int)] = [(4, report.events), (5, c.rejected), (6, c.inserted), (7, c.updated),
                                      (8, c.unchanged), (9, c.merged), (10, c.deleted)]
        insertSource.bind(1, source.name)
        insertSource.bind(2, source.kind)
        insertSource.bind(3, sha256)
        for (index, value) in values { insertSource.bind(index, value) }
        insertSource.bind(11, page.problem)
        insertSource.bind(12, recordedAt)
        try insertSource.run()
    }

    private func warnAbout(_ report: SourceReport, page: CatalogPage) {
        if let problem = report.problem {
            logger.warning("\(problem)")
        }
        if let first = page.rejects.first {
            let more = page.rejects.count > 1 ? " (and \(Format.count(page.rejects.count - 1)) more; see the rejects table)" : ""
            logger.warning("\(report.name): rejected \(first.position): \(first.reason)\(more)")
        }
        logger.debug("""
            \(report.name): \(report.events) events: \(report.counts.inserted) inserted, \(report.counts.updated) updated, \
            \(report.counts.unchanged) unchanged, \(report.counts.merged) merged, \(report.counts.deleted) deleted, \
            \(report.counts.rejected) rejected
            """)
    }
}

/// Hands memory freed by the last source back to the system. glibc keeps freed
/// heap pages for reuse, and with pages parsed on one thread and freed on another
/// the heap of a long run grows past what is live (by some 25 MB at a million
/// events); trimming after each source keeps the peak nearer the live size.
private func releaseFreedMemory() {
    _ = mallocTrim?(0)
}

/// glibc's `malloc_trim`, which Swift's Glibc module does not export (`nil` elsewhere).
private let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
}()

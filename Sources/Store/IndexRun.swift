import QuakeSQLite
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
        let known = Set(try String.fetchAll(db, sql: "SELECT sha256 FROM sources"))
        let reader = SourceReader(sources, known: known)
        defer { reader.stop() }
        let expected = sources.allSatisfy { $0.expectedEvents != nil } ? sources.reduce(0) { $0 + ($1.expectedEvents ?? 0) } : nil
        var summary = IndexSummary()
        let writerStart = threadCPUSeconds()
        defer {
            let writing = threadCPUSeconds() - writerStart
            logger.debug("CPU: reading \(String(format: "%.2f", reader.cpuSeconds)) s, writing \(String(format: "%.2f", writing)) s; the writer waited \(String(format: "%.2f", reader.waitedSeconds)) s for the reader")
        }
        var done = 0
        var position = 0
        while let source = reader.nextSource() {
            position += 1
            let detail = "source \(Format.count(position))/\(Format.count(sources.count))"
            var report: SourceReport
            switch source {
            case .unreadable(let indexSource, let message):
                report = SourceReport(name: indexSource.name, outcome: .unreadable(message))
                logger.error("\(message)")
            case .alreadyIndexed(let indexSource, let earlierInRun):
                report = SourceReport(name: indexSource.name, outcome: .alreadyIndexed)
                logger.debug("\(indexSource.name): already indexed\(earlierInRun ? " (same content as an earlier source)" : "")")
            case .read(let indexSource, let sha256):
                report = SourceReport(name: indexSource.name, outcome: .indexed)
                var rejects: RejectList = []
                do {
                    try db.inTransaction(.immediate) {
                        rejects = try store(from: reader, source: indexSource, sha256: sha256, into: &report) { count in
                            progress.update(ProgressSnapshot(stage: "index", done: done + count, total: expected,
                                                             unit: "events", detail: detail))
                        }
                        return .commit
                    }
                } catch let error as DatabaseError {
                    throw QuakeBakeError("\(indexSource.name): the store could not take it (\(error)); nothing of it was stored, and the sources after it were not indexed")
                }
                done += report.events
                warnAbout(report, rejects: rejects)
            }
            progress.update(ProgressSnapshot(stage: "index", done: done, total: expected, unit: "events", detail: detail))
            summary.sources.append(report)
        }
        return summary
    }

    /// Stores one source as the reader hands it over: its events, its rejects and its
    /// `sources` row. Returns the source's rejects (without the whole-document one).
    private func store(from reader: SourceReader, source: IndexSource, sha256: String,
                       into report: inout SourceReport, progress: (Int) -> Void) throws -> RejectList {
        var end: SourceEnd?
        while end == nil {
            switch reader.nextPart() {
            case .events(let chunk):
                defer { reader.recycle(chunk) }
                for var event in chunk.events {
                    // A link that is not http(s) is dropped; the event is good without it.
                    for (field, value) in event.dropLinksThatAreNotWeb() {
                        if report.droppedLinks == 0 { report.firstDroppedLink = "event \(event.id)'s \(field) \"\(value.prefix(80))\"" }
                        report.droppedLinks += 1
                    }
                    switch try reconciler.apply(event, source: source.name) {
                    case .inserted: report.counts.inserted += 1
                    case .updated: report.counts.updated += 1
                    case .unchanged: report.counts.unchanged += 1
                    case .merged: report.counts.merged += 1
                    case .deleted: report.counts.deleted += 1
                    }
                }
                report.events += chunk.events.count
                progress(report.events)
            case .end(let last):
                end = last
            }
        }
        try reconciler.flush()
        guard let end else { return [] }
        report.problem = end.problem
        report.commonRejects = end.rejects.commonKinds(3).map { RejectKindCount(kind: $0.kind, count: $0.count) }
        var rows = end.rejects.kept
        if end.rejects.notKept > 0 {
            let common = report.commonRejects.map { "\($0.kind) (\(Format.count($0.count)))" }.joined(separator: "; ")
            rows.append(Reject(position: "after item \(Format.count(end.rejects.kept.count))",
                               reason: "\(Format.count(end.rejects.notKept)) more items refused, not recorded one by one "
                                   + "(the first \(Format.count(RejectList.keptLimit)) are); most common: \(common)", raw: ""))
        }
        if let problem = end.problem {
            rows.append(Reject(position: "document", reason: problem, raw: end.excerpt))
        }
        for reject in rows {
            insertReject.bind(1, source.name)
            insertReject.bind(2, reject.position)
            insertReject.bind(3, reject.reason)
            insertReject.bind(4, reject.raw)
            insertReject.bind(5, recordedAt)
            try insertReject.run()
        }
        report.counts.rejected = end.rejects.count + (end.problem == nil ? 0 : 1)
        let c = report.counts
        let values: [(Int32, Int)] = [(4, report.events), (5, c.rejected), (6, c.inserted), (7, c.updated),
                                      (8, c.unchanged), (9, c.merged), (10, c.deleted)]
        insertSource.bind(1, source.name)
        insertSource.bind(2, source.kind)
        insertSource.bind(3, sha256)
        for (index, value) in values { insertSource.bind(index, value) }
        insertSource.bind(11, end.problem)
        insertSource.bind(12, recordedAt)
        try insertSource.run()
        return end.rejects
    }

    private func warnAbout(_ report: SourceReport, rejects: RejectList) {
        if let problem = report.problem {
            logger.warning("\(problem)")
        }
        if let first = report.firstDroppedLink {
            logger.warning("\(report.name): \(Format.count(report.droppedLinks, "link")) (url, detail) not http or https dropped, the events stored without them; the first: \(first)")
        }
        if let first = rejects.first {
            logger.warning("\(report.name): rejected \(first.position): \(first.reason)")
        }
        if !report.commonRejects.isEmpty {
            let total = report.events + rejects.count
            let reasons = report.commonRejects.map { "\($0.kind) (\(Format.count($0.count)))" }.joined(separator: "; ")
            logger.warning("\(report.name): \(Format.count(rejects.count)) of \(Format.count(total, "item")) refused (see the rejects table); most common: \(reasons)")
        }
        logger.debug("""
            \(report.name): \(report.events) events: \(report.counts.inserted) inserted, \(report.counts.updated) updated, \
            \(report.counts.unchanged) unchanged, \(report.counts.merged) merged, \(report.counts.deleted) deleted, \
            \(report.counts.rejected) rejected
            """)
    }
}

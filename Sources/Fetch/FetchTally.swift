import Foundation

/// Counters of one fetch invocation, shared by its concurrent tasks.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    let started = Date()
    private var planned = 0, alreadyDone = 0, fetched = 0, events = 0, bytes = 0
    private var counts = 0, queries = 0, failures = 0, outsideSelection = 0
    private var detailRequests = 0, contentRequests = 0, detailsFetched = 0, detailsMissing = 0, contentFiles = 0, contentLeftOut = 0
    private var waiting = 0

    func plan(windows: Int, alreadyDone done: Int) { lock.withLock { planned = windows; alreadyDone = done } }
    func addPlanned(_ n: Int) { lock.withLock { planned += n } }
    func fetched(events e: Int, bytes b: Int) { lock.withLock { fetched += 1; events += e; bytes += b } }
    func outside(_ n: Int) { lock.withLock { outsideSelection += n } }

    /// A quake's details fetched, or found missing at the service.
    enum DetailOutcome { case fetched, missing }

    func detail(_ outcome: DetailOutcome) {
        lock.withLock { if outcome == .fetched { detailsFetched += 1 } else { detailsMissing += 1 } }
    }

    func content(leftOut: Bool) { lock.withLock { if leftOut { contentLeftOut += 1 } else { contentFiles += 1 } } }
    func detailsWaiting(_ n: Int) { lock.withLock { waiting = n } }

    func record(_ request: RequestRecord) {
        lock.withLock {
            switch request.endpoint {
            case "count": counts += 1
            case "detail": detailRequests += 1
            case "content": contentRequests += 1
            default: queries += 1
            }
            // Pages' retries; a detail or file the service does not have is counted apart (`detail`, `content`).
            if request.status != 200 && (request.endpoint == "count" || request.endpoint == "query") { failures += 1 }
        }
    }

    func progress() -> (done: Int, planned: Int, events: Int, bytes: Int) {
        lock.withLock { (alreadyDone + fetched, planned, events, bytes) }
    }

    func summary(run: RunRecord, duration: TimeInterval) -> FetchSummary {
        lock.withLock {
            FetchSummary(runID: run.id, mode: run.mode, resumed: false, updatedAfter: run.updatedAfter, windowsPlanned: planned,
                         windowsFetched: fetched, windowsAlreadyDone: alreadyDone, events: events, bytes: bytes,
                         countRequests: counts, queryRequests: queries, failedAttempts: failures, outsideSelection: outsideSelection,
                         highWaterMark: nil, duration: duration,
                         details: FetchSummary.Details(requests: detailRequests, contentRequests: contentRequests, fetched: detailsFetched,
                                                       missing: detailsMissing, contentFiles: contentFiles, contentLeftOut: contentLeftOut,
                                                       waiting: waiting))
        }
    }
}

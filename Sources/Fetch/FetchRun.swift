import Foundation
import Logging
import QuakeCatalog
import QuakeCommon

/// One fetch run in progress: plans (unless resuming a planned run), then
/// fetches every planned window with at most `concurrency` requests in flight.
final class FetchRun: Sendable {
    private let run: RunRecord
    private let selection: FetchSelection
    private let options: FetchOptions
    private let workspace: Workspace
    private let journal: Journal
    private let progress: any ProgressSink
    private let logger: Logger
    private let transport: HTTPTransport
    private let contentTransport: HTTPTransport
    private let client: ServiceClient
    private let contentClient: ServiceClient
    private let planner: WindowPlanner
    private let tally = Tally()

    init(run: RunRecord, selection: FetchSelection, options: FetchOptions, workspace: Workspace, journal: Journal,
         progress: any ProgressSink, logger: Logger) {
        self.run = run
        self.selection = selection
        self.options = options
        self.workspace = workspace
        self.journal = journal
        self.progress = progress
        self.logger = logger
        transport = HTTPTransport(connectTimeout: options.connectTimeout, readTimeout: options.readTimeout,
                                  deadline: options.requestDeadline, maxBodyBytes: options.maxBodyBytes)
        // Product files stop at their own, smaller limit as they arrive.
        contentTransport = HTTPTransport(connectTimeout: options.connectTimeout, readTimeout: options.readTimeout,
                                         deadline: options.requestDeadline, maxBodyBytes: options.maxContentBytes)
        let tally = self.tally
        let runID = run.id
        let gate = RequestGate(concurrency: options.concurrency, budget: options.requestBudget, window: options.budgetWindow)
        let retry = RetryPolicy(maxAttempts: options.maxAttempts, baseDelay: options.retryBaseDelay, maxDelay: options.retryMaxDelay,
                                maxRetryAfter: options.maxRetryAfter, giveUpAfter: options.giveUpAfter)
        let record: @Sendable (RequestRecord) -> Void = { request in
            tally.record(request)
            journal.record(request, runID: runID, now: Int64(Date().timeIntervalSince1970 * 1000))
        }
        client = ServiceClient(service: options.service, transport: transport, gate: gate, retry: retry, maxBodyBytes: options.maxBodyBytes,
                               record: record, logger: logger)
        contentClient = ServiceClient(service: options.service, transport: contentTransport, gate: gate, retry: retry,
                                      maxBodyBytes: options.maxContentBytes, record: record, logger: logger)
        var parameters: [(String, String)] = [("format", "geojson"), ("jsonerror", "true")]
        if let updatedAfter = run.updatedAfter {
            parameters += [("updatedafter", ISOTime.formatParameter(milliseconds: updatedAfter)), ("includedeleted", "true")]
        }
        planner = WindowPlanner(client: client, parameters: parameters + selection.filterParameters)
    }

    func close() {
        transport.close()
        contentTransport.close()
    }

    func summary() async -> FetchSummary {
        tally.summary(run: run, duration: Date().timeIntervalSince(tally.started))
    }

    func execute() async throws {
        let cap: Int, counted: Int?
        if run.state == "planning" {
            let plan = try await planner.plan(selection.timeRange(now: run.startedAt))
            (cap, counted) = (plan.cap, plan.counted)
            try journal.savePlan(runID: run.id, windows: plan.windows, cap: cap, countedEvents: plan.counted)
            logger.debug("plan: \(plan.reason)")
        } else {
            (cap, counted) = (run.cap ?? 20_000, run.countedEvents)
        }
        let before = try journal.fetchedTotals(runID: run.id)
        tally.plan(windows: try journal.plannedWindows(runID: run.id).count + before.windows, alreadyDone: before.windows)
        report()
        try await fetchPlannedWindows(cap: cap)
        if let counted, try await auditEstimatedWindows(counted: counted) {
            try await fetchPlannedWindows(cap: cap)
        }
        try await DetailRun(runID: run.id, options: options, client: client, contentClient: contentClient, journal: journal,
                            workspace: workspace, tally: tally, progress: progress, logger: logger).execute()
    }

    /// Fetches every window still planned, `concurrency` at a time, splitting those over the cap.
    private func fetchPlannedWindows(cap: Int) async throws {
        var queue = try journal.plannedWindows(runID: run.id)
        try await withThrowingTaskGroup(of: [WindowRecord].self) { group in
            var active = 0
            while !queue.isEmpty || active > 0 {
                while active < max(1, options.concurrency), !queue.isEmpty {
                    let window = queue.removeFirst()
                    active += 1
                    group.addTask { try await self.fetch(window, cap: cap) }
                }
                if let replacements = try await group.next() {
                    active -= 1
                    queue.insert(contentsOf: replacements, at: 0)
                    tally.addPlanned(replacements.isEmpty ? 0 : replacements.count - 1)
                    report()
                }
            }
        }
    }

    /// A window planned at the average rate is not counted before its query (that would double
    /// the requests), so a page the service cut short without saying so would pass unseen. The
    /// run's pages are held against the planning count instead: when they hold fewer events,
    /// each such window is counted now, and one whose page is short is planned again, to be
    /// fetched against its count (`fetch` gives up with exit 75 when the service keeps sending
    /// less). Events that arrived after planning only make the pages hold more. Returns whether
    /// windows were planned again.
    private func auditEstimatedWindows(counted: Int) async throws -> Bool {
        let fetched = try journal.fetchedTotals(runID: run.id).events
        let estimated = try journal.estimatedPages(runID: run.id)
        guard fetched < counted, !estimated.isEmpty else { return false }
        logger.info("""
            the pages hold \(Format.count(fetched, "event")), the plan counted \(Format.count(counted)): counting \
            the \(Format.count(estimated.count, "window")) planned at the average rate
            """)
        var again = 0
        for (window, events) in estimated {
            let count = try await planner.count(start: window.start, end: window.end).count
            if events < count {
                logger.info("window \(describe(window)): page has \(Format.count(events, "event")), count says \(Format.count(count)): fetching it again")
                again += 1
            }
            try journal.recount(window, count: count, pageEvents: events)
        }
        tally.addPlanned(again)
        return again > 0
    }

    /// Fetches one window. Returns the windows that replace it when it had to be split.
    ///
    /// A page is checked by a count when it disagrees with the window's own count (the
    /// catalog moved between them), or, for a window planned at an average rate, when it
    /// holds the whole cap (a service that cut it short without saying so).
    private func fetch(_ window: WindowRecord, cap: Int) async throws -> [WindowRecord] {
        let parameters = planner.parameters(start: window.start, end: window.end) + [("orderby", "time-asc")]
        var expected: Int? = window.counted ? window.plannedCount : nil
        var answer: QueryAnswer?
        for round in 1...3 {
            do {
                answer = try await client.query(parameters)
            } catch ServiceError.overCap(_, let matched) {
                var count = matched ?? 0
                if matched == nil { count = try await planner.count(start: window.start, end: window.end).count }
                let why = window.counted ? "" : " (more than its share at the average rate)"
                logger.debug("window \(describe(window)) matched \(Format.count(count, "event")), over the cap of \(Format.count(cap))\(why): splitting it")
                return try split(window, count: max(count, cap + 1), cap: cap)
            }
            let received = answer!.page.events.count + answer!.page.rejects.count
            guard expected.map({ received != $0 }) ?? (received >= cap) else { break }
            let recount = try await planner.count(start: window.start, end: window.end).count
            let reason = expected.map { "count said \($0)" } ?? "as many as the cap"
            logger.info("window \(describe(window)): page has \(received) events, \(reason), recount says \(recount)")
            if recount > cap { return try split(window, count: recount, cap: cap) }
            if recount == received { break }
            if round == 3 && received < recount {
                throw ServiceError.unavailable(attempts: round, lastProblem: "window \(describe(window)): its page holds "
                    + "\(Format.count(received, "event")) each time, its count says \(Format.count(recount)): the service leaves events out",
                    url: answer!.url)
            }
            if round == 3 { logger.warning("window \(describe(window)): page has more events than the count; keeping the page") }
            expected = recount
        }
        reportOutside(answer!.page.events, window: window)
        reportRepeatedIDs(answer!.page.events, window: window)
        try archive(answer!, window: window)
        return []
    }

    /// Warns about (and counts) events the service sent that the request did not ask for.
    /// They stay in the page: see `FetchSelection.whyOutside`.
    private func reportOutside(_ events: [QuakeEvent], window: WindowRecord) {
        let outside = events.compactMap { event in selection.whyOutside(event, start: window.start, end: window.end).map { (event.id, $0) } }
        guard let first = outside.first else { return }
        logger.warning("window \(describe(window)): \(Format.count(outside.count)) of \(Format.count(events.count, "event")) not what was asked for (\(first.0): \(first.1)); kept and stored as the service sent them")
        tally.outside(outside.count)
    }

    /// Warns about features of one page that share an id: the service lists an event once,
    /// so they are stored as versions of one event (the newest wins) and the others are gone.
    private func reportRepeatedIDs(_ events: [QuakeEvent], window: WindowRecord) {
        var seen = Set<String>(minimumCapacity: events.count)
        let repeated = events.filter { !seen.insert($0.id).inserted }
        guard let first = repeated.first else { return }
        logger.warning("""
            window \(describe(window)): \(Format.count(repeated.count, "feature")) \(repeated.count == 1 ? "repeats" : "repeat") an id of the same page (first: \(first.id)); \
            the store keeps one event per id (the newest version)
            """)
    }

    private func split(_ window: WindowRecord, count: Int, cap: Int) throws -> [WindowRecord] {
        let parts = try WindowPlanner.split(PlannedWindow(start: window.start, end: window.end, count: count, counted: true), cap: cap)
        logger.debug("window \(describe(window)): split into \(Format.count(parts.count, "window")) of equal time")
        return try journal.split(window, runID: run.id, into: parts)
    }

    /// Writes the page (gzip, atomically) and records it with its window, so a crash leaves either both or neither.
    private func archive(_ answer: QueryAnswer, window: WindowRecord) throws {
        let relative = "archive/pages/run-\(String(format: "%06d", run.id))/"
            + "\(Self.stamp(window.start))_\(Self.stamp(window.end)).json.gz"
        let compressed = try Gzip.compress(answer.body)
        try AtomicFile.write(compressed, to: workspace.root.appendingPathComponent(relative))
        let page = answer.page
        let entry = PageEntry(file: relative, url: answer.url.redacted, status: answer.status,
                              eventCount: page.events.count + page.rejects.count, bytes: answer.body.count,
                              storedBytes: compressed.count, sha256: SHA256.hex(answer.body),
                              durationMS: Int(answer.duration * 1000), fetchedAt: ISOTime.format(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)),
                              maxUpdated: page.events.map(\.updated).max(), generated: page.metadata?.generated)
        let (policy, runID) = (options.details, run.id)
        try journal.recordPage(entry, runID: run.id, window: window) { db in
            try Journal.noteDetails(of: page.events, policy: policy, runID: runID, now: entry.fetchedAt, db)
        }
        tally.fetched(events: entry.eventCount, bytes: entry.bytes)
        report()
    }

    private func report() {
        let state = tally.progress()
        progress.update(ProgressSnapshot(stage: "fetch", done: state.done, total: state.planned, unit: "windows",
                                         detail: "\(Format.count(state.events)) events · \(Format.bytes(state.bytes))"))
    }

    private func describe(_ window: WindowRecord) -> String {
        "\(ISOTime.formatParameter(milliseconds: window.start))…\(ISOTime.formatParameter(milliseconds: window.end))"
    }

    private static func stamp(_ ms: Int64) -> String {
        ISOTime.formatParameter(milliseconds: ms).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
    }
}

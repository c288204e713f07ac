import Foundation
import QuakeCommon

/// What one `fetch` invocation did.
public struct FetchSummary: Sendable, Equatable {
    /// The journal's run id.
    public var runID: Int64
    /// `full` or `incremental`.
    public var mode: String
    /// True when this invocation finished a run an earlier one started.
    public var resumed: Bool
    /// The `updatedafter` sent (incremental runs), ms.
    public var updatedAfter: Int64?
    /// Windows in the plan (after any splits).
    public var windowsPlanned: Int
    /// Windows fetched by this invocation.
    public var windowsFetched: Int
    /// Windows an earlier, interrupted invocation had already fetched.
    public var windowsAlreadyDone: Int
    /// Features in the pages this invocation archived.
    public var events: Int
    /// Body bytes this invocation received in archived pages.
    public var bytes: Int
    /// Requests this invocation sent, by endpoint (failed attempts included).
    public var countRequests: Int
    public var queryRequests: Int
    /// Attempts that got no usable answer and were retried.
    public var failedAttempts: Int
    /// Events the service sent that were not asked for (outside the window or the
    /// selection's filters): kept and stored, and counted here.
    public var outsideSelection: Int
    /// The run's high-water mark of `updated` (ms): where the next incremental run starts.
    public var highWaterMark: Int64?
    public var duration: TimeInterval
    /// What the details phase did.
    public var details = Details()

    /// The details phase of a run (see `DetailPolicy`).
    public struct Details: Sendable, Equatable {
        /// Detail requests (`query?eventid=`) and content file requests sent, failed attempts included.
        public var requests = 0
        public var contentRequests = 0
        /// Quakes whose details were archived, and those the service had none of.
        public var fetched = 0
        public var missing = 0
        /// Content files archived, and those left out (with the reason, in the archive).
        public var contentFiles = 0
        public var contentLeftOut = 0
        /// Quakes still waiting for details after the run.
        public var waiting = 0

        public init(requests: Int = 0, contentRequests: Int = 0, fetched: Int = 0, missing: Int = 0, contentFiles: Int = 0,
                    contentLeftOut: Int = 0, waiting: Int = 0) {
            (self.requests, self.contentRequests, self.fetched, self.missing) = (requests, contentRequests, fetched, missing)
            (self.contentFiles, self.contentLeftOut, self.waiting) = (contentFiles, contentLeftOut, waiting)
        }
    }

    /// One line for people and cron mail.
    public var line: String {
        var text = "\(mode) fetch\(resumed ? " (resumed)" : ""): \(Format.count(windowsFetched, "window"))"
        if windowsAlreadyDone > 0 { text += " (+\(windowsAlreadyDone) done before)" }
        text += ", \(Format.count(events, "event")), \(Format.bytes(bytes)), \(countRequests) count + \(Format.count(queryRequests, "query request"))"
        if failedAttempts > 0 { text += " (\(failedAttempts) retried)" }
        if outsideSelection > 0 { text += ", \(Format.count(outsideSelection, "event")) outside what was asked (kept)" }
        if details.requests > 0 || details.waiting > 0 {
            text += ", details of \(Format.count(details.fetched, "quake")) (\(Format.count(details.requests, "request")) + \(Format.count(details.contentRequests, "file request"))"
            if details.contentLeftOut > 0 { text += ", \(Format.count(details.contentLeftOut, "file")) left out" }
            if details.missing > 0 { text += ", \(details.missing) without details at the service" }
            text += details.waiting > 0 ? ", \(Format.count(details.waiting)) waiting)" : ")"
        }
        return text + String(format: ", %.1f s", duration)
    }
}

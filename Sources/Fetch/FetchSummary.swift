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

    /// One line for people and cron mail.
    public var line: String {
        var text = "\(mode) fetch\(resumed ? " (resumed)" : ""): \(Format.count(windowsFetched, "window"))"
        if windowsAlreadyDone > 0 { text += " (+\(windowsAlreadyDone) done before)" }
        text += ", \(Format.count(events, "event")), \(Format.bytes(bytes)), \(countRequests) count + \(Format.count(queryRequests, "query request"))"
        if failedAttempts > 0 { text += " (\(failedAttempts) retried)" }
        if outsideSelection > 0 { text += ", \(Format.count(outsideSelection, "event")) outside what was asked (kept)" }
        return text + String(format: ", %.1f s", duration)
    }
}

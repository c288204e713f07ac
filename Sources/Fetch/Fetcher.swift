import Foundation
import Logging
import QuakeCatalog
import QuakeCommon

/// `fetch`: download a selection from an FDSN event service into the workspace archive.
///
/// Count first; plan windows at or under the service's cap; query each window
/// (`orderby=time-asc`); archive every page atomically and check it against its
/// count; checkpoint everything in the journal so a killed run resumes where it
/// stopped. Incremental runs ask only for what changed (`updatedafter`, with
/// deletions). The caller holds the workspace lock.
public enum Fetcher {
    /// Runs (or resumes) a fetch of `selection`.
    public static func run(selection: FetchSelection, options: FetchOptions, workspace: Workspace,
                           progress: any ProgressSink = Progress.silent, logger: Logger) async throws -> FetchSummary {
        try selection.validate()
        let journal = try Journal(workspace: workspace)
        // Temporary files of a killed run (the caller holds the lock, so nobody else is writing).
        AtomicFile.removeDebris(under: workspace.archiveDirectory)
        let identity = selection.identity
        let now = Int64(Date().timeIntervalSince1970 * 1000)

        var resumed = false
        let run: RunRecord
        if let unfinished = try journal.unfinishedRun(identity: identity) {
            run = unfinished
            resumed = true
            logger.info("resuming fetch run \(run.id) (\(run.mode)) started \(ISOTime.format(milliseconds: run.startedAt))")
        } else {
            let previous = try journal.lastCompletedRun(identity: identity)
            let incremental: Bool
            switch options.mode {
            case .full: incremental = false
            case .automatic: incremental = previous?.highWaterMark != nil
            case .incremental:
                incremental = previous?.highWaterMark != nil
                if !incremental { logger.warning("no completed fetch of this selection yet: fetching it in full") }
            }
            let updatedAfter = incremental ? previous!.highWaterMark! - options.overlap : nil
            let selectionText = String(decoding: try JSONEncoder.sorted.encode(selection), as: UTF8.self)
            run = try journal.startRun(identity: identity, selection: selectionText, mode: incremental ? "incremental" : "full",
                                       updatedAfter: updatedAfter, now: now)
        }

        let fetch = FetchRun(run: run, selection: selection, options: options, workspace: workspace, journal: journal,
                             progress: progress, logger: logger)
        defer { fetch.close() }
        do {
            try await fetch.execute()
        } catch {
            let state = (error as? ServiceError).map { if case .rejected = $0 { return "failed" } else { return "fetching" } } ?? "fetching"
            if state == "failed" {
                try? journal.finishRun(run.id, state: "failed", highWaterMark: nil, message: "\(error)", now: now)
            }
            progress.finish()
            throw FetchFailure(error)
        }
        progress.finish()

        let extremes = try journal.pageExtremes(runID: run.id)
        let previousMark = try journal.lastCompletedRun(identity: identity)?.highWaterMark
        // Everything updated before the service's first answer was visible to this run,
        // so the mark never passes that moment (nor the moment the run was planned).
        let seen = [extremes.maxUpdated, previousMark].compactMap { $0 }.max()
        let visibleUntil = min(run.startedAt, extremes.earliestGenerated ?? run.startedAt)
        let mark = seen.map { min($0, max(visibleUntil, previousMark ?? visibleUntil)) }
        try journal.finishRun(run.id, state: "done", highWaterMark: mark, message: nil, now: Int64(Date().timeIntervalSince1970 * 1000))

        var summary = await fetch.summary()
        summary.resumed = resumed
        summary.highWaterMark = mark
        logger.info("\(summary.line)")
        return summary
    }
}

/// Turns the service's and the transport's errors into messages and exit statuses for people and cron.
struct FetchFailure: ExitStatusProviding, CustomStringConvertible {
    let description: String
    let kind: QuakeBakeError.Kind
    var exitStatus: ExitStatus { kind.exitStatus }

    init(_ error: Error) {
        switch error {
        case let error as ServiceError:
            switch error {
            case .rejected: kind = .refused
            case .misconfigured: kind = .failure
            case .unavailable: kind = .unavailable
            case .overCap: kind = .overLimit
            }
            description = "fetch stopped: \(error)"
        case let error as ExitStatusProviding:
            kind = error.kind
            description = "\(error)"
        default:
            kind = .failure
            description = "fetch stopped: \(error)"
        }
    }
}

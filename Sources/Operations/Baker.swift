import Foundation
import Logging
import QuakeBundles
import QuakeCommon
import QuakeFetch
import QuakePublish
import QuakeStore

/// `bake`: fetch → index → export (→ publish, with a `publish:` section) in one run, for cron.
///
/// Takes the workspace lock (a second bake exits at once with status 75), records
/// the run and the stage it is in (so `status` shows where a killed run died),
/// and turns every outcome into an exit status: 0 done or nothing changed, 75
/// temporary (service unavailable, locked), 65 too many rejected events, 1 other.
public enum Baker {
    /// Runs one bake.
    public static func bake(_ configuration: BakeConfiguration, workspace: Workspace,
                            progress: any ProgressSink = Progress.silent, logger: Logger) async throws -> BakeReport {
        try OutputDirectory.check(configuration.run.bundles(in: workspace))  // before a fetch, not after
        let lock = try WorkspaceLock(workspace: workspace, command: "quake-bake bake")
        defer { lock.release() }
        let history = try RunHistory(workspace: workspace)
        let runID = try history.begin("bake")
        func enter(_ stage: String) throws {
            Interruption.enter(stage: stage)
            try history.stage(runID, stage)
        }
        // Every stage reports progress; the recorder notes each new stage in the run history.
        let progress = StageRecorder(forwardingTo: progress) { stage in try? history.stage(runID, stage) }
        var report = BakeReport()
        do {
            try enter("fetch")
            report.fetch = try await Fetcher.run(selection: configuration.selection, options: configuration.fetch, workspace: workspace,
                                                 progress: progress, logger: Logger(label: "fetch"))
            try enter("index")
            report.index = try Indexer.index(try ArchiveSources.all(in: workspace), details: try ArchiveSources.details(in: workspace),
                                             store: workspace.storePath,
                                             progress: progress, logger: Logger(label: "index"))
            try enter("export")
            if try storeHoldsEvents(workspace.storePath) {
                report.export = try Exporter.export(store: workspace.storePath, out: configuration.run.bundles(in: workspace),
                                                    options: configuration.export, progress: progress, logger: Logger(label: "export"))
            } else {
                logger.info("the store holds no events yet: nothing to export")
            }
            if let publish = configuration.publish {
                try enter("publish")
                report.publish = try await PublishRun.publish(out: configuration.run.bundles(in: workspace), options: publish,
                                                              workspace: workspace, history: history, runID: runID, progress: progress)
            }
            if report.rejected > configuration.run.maxRejects {
                throw QuakeBakeError("\(Format.count(report.rejected, "event")) rejected, more than the limit of \(configuration.run.maxRejects) "
                                     + "(see the store's rejects table); the good ones were stored and exported", exitStatus: .dataError)
            }
            report.outcome = report.changed ? "ok" : "nothing changed"
            try history.finish(runID, outcome: report.outcome, exitCode: 0, eventsFetched: report.fetch?.events ?? 0,
                               eventsChanged: report.index?.counts.changed ?? 0, rejected: report.rejected,
                               bundleVersion: report.export?.bundleVersion, message: nil)
            logger.info("\(report.line)")
            return report
        } catch {
            try? history.finish(runID, failedWith: error, eventsFetched: report.fetch?.events ?? 0,
                                eventsChanged: report.index?.counts.changed ?? 0, rejected: report.rejected,
                                bundleVersion: report.export?.bundleVersion)
            throw error
        }
    }

    private static func storeHoldsEvents(_ path: URL) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path.path) else { return false }
        let store = try EventStore(opening: path)
        defer { try? store.close() }
        return try store.statistics().events > 0
    }
}

/// What one bake did, stage by stage.
public struct BakeReport: Sendable {
    public var fetch: FetchSummary?
    public var index: IndexSummary?
    /// `nil` when the store held nothing to export.
    public var export: ExportSummary?
    /// `nil` without a `publish:` section.
    public var publish: PublishSummary?
    /// `ok` or `nothing changed` for a run that ended well.
    public var outcome = "running"

    /// Events the index rejected in this run.
    public var rejected: Int { index?.counts.rejected ?? 0 }

    /// True when the run changed the store or made a new bundle version.
    public var changed: Bool { (index?.counts.changed ?? 0) > 0 || (index?.details.changed ?? 0) > 0 || export?.changed == true || publish?.changed == true }

    /// One line for cron mail and logs.
    public var line: String {
        let counts = index?.counts
        var text = "bake \(outcome): fetched \(Format.count(fetch?.events ?? 0, "event"))"
        text += ", store +\(counts?.inserted ?? 0) ~\(counts?.updated ?? 0) merged \(counts?.merged ?? 0) deleted \(counts?.deleted ?? 0) rejected \(counts?.rejected ?? 0)"
        if let export { text += export.changed ? ", bundle \(export.bundleVersion)" : ", bundle unchanged" }
        if let publish {
            text += publish.changed ? ", published \(Format.bytes(Int(publish.uploadedBytes))) to \(publish.target)" : ", published already"
        }
        return text
    }

    public init() {}
}

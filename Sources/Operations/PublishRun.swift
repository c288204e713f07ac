import Foundation
import Logging
import QuakeBundles
import QuakeCommon
import QuakePublish

/// A publish recorded in the run history: as a stage of `bake`, or as the `publish` command's own run.
public enum PublishRun {
    /// `quake-bake publish`: publishes `bundle` (else the current bundle under `out`) as a run
    /// of its own. The caller holds the workspace lock.
    public static func run(bundle: URL?, out: URL, options: PublishOptions, workspace: Workspace,
                           progress: any ProgressSink, logger: Logger) async throws -> PublishSummary {
        let history = try RunHistory(workspace: workspace)
        let runID = try history.begin("publish")
        do {
            try history.stage(runID, "publish")
            let summary = try await publish(out: out, bundle: bundle, options: options, workspace: workspace, history: history,
                                            runID: runID, progress: progress, logger: logger)
            try history.finish(runID, outcome: summary.changed ? "ok" : "nothing changed", exitCode: 0, eventsFetched: 0, eventsChanged: 0,
                               rejected: 0, bundleVersion: summary.version, message: nil)
            return summary
        } catch {
            try? history.finish(runID, failedWith: error)
            throw error
        }
    }

    /// Publishes `bundle` (else the bundle `current` names under `out`) and records the summary.
    static func publish(out: URL, bundle: URL? = nil, options: PublishOptions, workspace: Workspace, history: RunHistory, runID: Int64,
                        progress: any ProgressSink, logger: Logger = Logger(label: "publish")) async throws -> PublishSummary {
        guard let directory = bundle ?? CurrentBundle.read(out: out).map({ URL(fileURLWithPath: $0.directory) }) else {
            throw QuakeBakeError("no bundle to publish under \(out.path): run `quake-bake export` first, or name one with --bundle")
        }
        let summary = try await Publisher.publish(bundle: directory, options: options, workspace: workspace, progress: progress, logger: logger)
        try history.recordPublish(runID, summary)
        return summary
    }
}

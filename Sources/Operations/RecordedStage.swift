import Foundation
import QuakeCommon

/// A stage command (`fetch`, `index`, `export`) recorded in the run history as a bake is,
/// so that `status` lists every run that changed the workspace, whichever command made it.
public enum RecordedStage {
    /// What a finished stage tells the history.
    public struct Facts: Sendable {
        public var changed: Bool
        public var eventsFetched = 0
        public var eventsChanged = 0
        public var rejected = 0
        public var bundleVersion: String?

        public init(changed: Bool, eventsFetched: Int = 0, eventsChanged: Int = 0, rejected: Int = 0, bundleVersion: String? = nil) {
            self.changed = changed
            self.eventsFetched = eventsFetched
            self.eventsChanged = eventsChanged
            self.rejected = rejected
            self.bundleVersion = bundleVersion
        }
    }

    /// Runs `body` as the run `command` of `workspace` (the caller holds the workspace lock):
    /// recorded as running, then with its outcome, exit code and `facts`, or as failed with
    /// the error; a run killed by a signal is recorded as interrupted.
    public static func run<T>(_ command: String, workspace: Workspace, facts: (T) -> Facts,
                              _ body: () async throws -> T) async throws -> T {
        let history = try RunHistory(workspace: workspace)
        let runID = try history.begin(command)
        do {
            let result = try await body()
            let f = facts(result)
            try history.finish(runID, outcome: f.changed ? "ok" : "nothing changed", exitCode: 0, eventsFetched: f.eventsFetched,
                               eventsChanged: f.eventsChanged, rejected: f.rejected, bundleVersion: f.bundleVersion, message: nil)
            return result
        } catch {
            try? history.finish(runID, failedWith: error)
            throw error
        }
    }
}

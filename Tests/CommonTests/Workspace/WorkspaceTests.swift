import Foundation
import QuakeCommon
import Testing
import TestSupport

/// The workspace's layout and its lock: one run at a time, the next told who holds it.
@Suite struct WorkspaceTests {
    @Test func everyPathIsUnderTheRootAndTheEnvironmentNamesTheDefault() {
        let workspace = Workspace(root: URL(fileURLWithPath: "/srv/quakes"))
        for path in [workspace.pagesDirectory, workspace.journalPath, workspace.storePath, workspace.bundlesDirectory,
                     workspace.runsPath, workspace.publishDirectory, workspace.lockPath] {
            #expect(path.path.hasPrefix("/srv/quakes/"), "\(path.path)")
        }
        #expect(Workspace.resolve(nil, environment: [Workspace.environmentVariable: "/srv/other"]).root.path == "/srv/other")
        #expect(Workspace.resolve("/srv/given", environment: [Workspace.environmentVariable: "/srv/other"]).root.path == "/srv/given")
    }

    @Test func aSecondLockIsRefusedAsLockedNamingTheHolderUntilTheFirstIsReleased() throws {
        let directory = TemporaryDirectory("workspace-lock")
        let workspace = Workspace(root: directory.path("ws"))
        try workspace.create()
        let first = try WorkspaceLock(workspace: workspace, command: "bake")
        #expect(WorkspaceLock.holder(of: workspace)?.command == "bake")
        #expect(WorkspaceLock.holder(of: workspace)?.pid == getpid())
        do {
            _ = try WorkspaceLock(workspace: workspace, command: "index")
            Issue.record("a second lock was given")
        } catch let error as QuakeBakeError {
            #expect(error.kind == .locked && error.exitStatus == .temporaryFailure)
            #expect(error.description.contains("`bake` (pid \(getpid())"), "\(error)")
        }
        first.release()
        let second = try WorkspaceLock(workspace: workspace, command: "index")
        #expect(WorkspaceLock.holder(of: workspace)?.command == "index")
        second.release()
    }
}

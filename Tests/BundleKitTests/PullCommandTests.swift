import Foundation
import QuakeBundleKit
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 45.4: `quake-bake pull` says what it did and exits by the outcome: 0 updated or current,
/// 1 refused (the reason named), 64 a bad command line, 75 the source unreachable or the directory busy.
@Suite struct PullCommandTests {
    @Test func pullSaysWhatItDidAndExitsByTheOutcome() async throws {
        let dir = TemporaryDirectory("client-pull")
        let versions = try await ExportedVersions(in: dir.url)
        let publication = try TestPublication(at: dir.path("publication"))
        try publication.publish(versions.directories)
        let server = try ObjectServer(root: publication.root)
        let app = dir.path("app")
        func pull(_ from: String = server.url.absoluteString) async throws -> ChildProcess.Outcome {
            try await QuakeBakeCLI.run(["pull", "--from", from, "--to", app.path])
        }
        let v1 = versions.versions[0]

        let installed = try await pull()
        #expect(installed.status == 0 && installed.standardError.contains("version none → \(v1) downloaded whole"), "\(installed)")
        #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent("current/quakes.sqlite").path))
        let current = try await pull()
        #expect(current.status == 0 && current.standardError.contains("version \(v1), already current"), "\(current)")
        try await versions.revise()
        let pointer = try publication.publish(versions.directories)
        let updated = try await pull()
        #expect(updated.status == 0 && updated.standardError.contains("\(v1) → \(versions.versions[1]) by deltas"), "\(updated)")
        let comparison = try await BundleWitness.compare(app.appendingPathComponent("current"), versions.directories[1])
        #expect(comparison.mismatches == 0, "\(comparison)")

        var hostile = pointer
        hostile.files[0].key = "/etc/passwd"
        try publication.write(hostile)
        let refused = try await pull()
        #expect(refused.status == 1 && refused.standardError.contains("is absolute"), "\(refused)")
        try publication.write(pointer)

        let bad = try await pull("s3://bucket/quakes")
        #expect(bad.status == 64 && bad.standardError.contains("--from must be"), "\(bad)")
        let missing = try await pull(server.url.appendingPathComponent("nothing-here").absoluteString)
        #expect(missing.status == 1 && missing.standardError.contains("HTTP 404"), "\(missing)")

        // Another pull holds the directory.
        let lock = open(app.appendingPathComponent("lock").path, O_RDWR)
        #expect(flock(lock, LOCK_EX) == 0)
        let busy = try await pull()
        #expect(busy.status == 75 && busy.standardError.contains("being updated by another process"), "\(busy)")
        close(lock)

        // Nothing listening: after its retries, 75; the held version is as it was.
        let address = server.url.absoluteString
        server.stop()
        let unreachable = try await pull(address)
        #expect(unreachable.status == 75 && unreachable.standardError.contains("no pointer to read"), "\(unreachable)")
        #expect(BundleClient(source: publication.root, directory: app).heldVersion == versions.versions[1])
    }
}

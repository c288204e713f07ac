import Foundation
import QuakeBundleKit
import Testing
import TestSupport

/// `bake` with a `publish:` section (issue 44.1, 44.8): the export is published in the same
/// run, as stage `publish`; a run with nothing new publishes nothing; the store away is a
/// temporary failure (75) after which the next bake publishes; status shows the last publish.
@Suite(.serialized) struct BakePublishTests {
    @Test func bakePublishesAfterEachExport() async throws {
        // A store of its own: this test stops it and starts it again.
        let server = try await SeaweedFS(buckets: ["quakes"])
        defer { server.stop() }
        let store = server.bucket("quakes")
        let standIn = try StandInProcess(catalogs: [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")], cap: 200)
        let directory = TemporaryDirectory("bake-publish")
        let workspace = directory.path("ws")
        let configuration = directory.path("bake.yaml")
        let credentials = try store.credentialsFile()
        try FileManager.default.copyItem(at: credentials, to: directory.path("credentials"))
        try """
            service: \(standIn.baseURL.absoluteString)
            selection: { start: 2010-01-01 }
            fetch: { retry_delay: 0.01 }
            export: { max_zoom: 5 }
            publish:
              to: s3://quakes/cron
              endpoint: \(store.endpoint.absoluteString)
              keep: 2
              credentials_file: credentials
              max_attempts: 2
              give_up_after: 3
            """.write(to: configuration, atomically: true, encoding: .utf8)
        let arguments = ["bake", "--config", configuration.path, "--workspace", workspace.path]

        let first = try await QuakeBakeCLI.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("info publish: publish s3://quakes/cron") && first.standardError.contains("published"), "\(first.standardError)")
        let status = try await BakeSupport.status(workspace)
        #expect(status.publish?.summary.version == status.bundle?.version)
        #expect(try await PublishSupport.pointer(store, prefix: "cron")?.0.bundleVersion == status.bundle?.version)
        #expect(try await PublishSupport.check(store, prefix: "cron").problems == [])

        let again = try await QuakeBakeCLI.run(arguments + ["--quiet"])
        #expect(again.status == 0 && again.standardError.isEmpty, "\(again.standardError)")

        // The store away: the fetch, index and export are done, the publish is a temporary failure.
        let id = try #require(try await standIn.catalog("starttime=2010-01-01").map(\.id).min())
        _ = try await standIn.update(id, ["mag": 8.8])
        server.stop()
        let away = try await QuakeBakeCLI.run(arguments + ["--quiet"])
        #expect(away.status == 75, "\(away.standardError)")
        #expect(away.standardError.contains("the store did not answer"), "\(away.standardError)")
        let failed = try await BakeSupport.status(workspace)
        #expect(failed.runs.first?.outcome == "temporary failure" && failed.runs.first?.stage == "done")

        try await server.restart()
        let back = try await QuakeBakeCLI.run(arguments + ["--quiet"])
        #expect(back.status == 0, "\(back.standardError)")
        let after = try await BakeSupport.status(workspace)
        #expect(after.bundle?.version != status.bundle?.version)
        #expect(try await PublishSupport.pointer(store, prefix: "cron")?.0.bundleVersion == after.bundle?.version)
        #expect(try await PublishSupport.check(store, prefix: "cron").problems == [])
    }
}

/// `status --json` of a workspace.
enum BakeSupport {
    static func status(_ workspace: URL) async throws -> StatusView {
        let outcome = try await QuakeBakeCLI.run(["status", "--json", "--workspace", workspace.path])
        return try JSONDecoder().decode(StatusView.self, from: Data(outcome.standardOutput.utf8))
    }

    /// What these tests read of `status --json`.
    struct StatusView: Decodable {
        struct Bundle: Decodable { var version: String }
        struct Run: Decodable { var outcome: String; var stage: String }
        struct Publish: Decodable { var summary: Summary }
        struct Summary: Decodable { var version: String }
        var bundle: Bundle?
        var publish: Publish?
        var runs: [Run]
    }
}

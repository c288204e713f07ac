import Foundation
import QuakeBundleKit
import QuakeCommon
import Testing
import TestSupport

/// What goes wrong, against a real store (issue 44.1, 44.4, 44.7): refusals change nothing
/// and name what to check; a store that dies mid-publish gives 75 and the next run converges;
/// an upload in parts left by a killed publish is aborted by the next; the secret never shows.
@Suite(.serialized) struct PublishFailureTests {
    @Test func refusalsChangeNothingAndNameWhatToCheck() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-refused")
        let workspace = try await PublishSupport.workspace(directory)
        let quakeBake = try QuakeBakeCLI.path()
        func publish(_ environment: [String], _ arguments: [String]) async throws -> ChildProcess.Outcome {
            try await ChildProcess.run("/usr/bin/env", ["-u", "AWS_ACCESS_KEY_ID", "-u", "AWS_SECRET_ACCESS_KEY", "-u", "AWS_SESSION_TOKEN",
                                                        "HOME=\(directory.url.path)"] + environment + [quakeBake, "publish", "--workspace", workspace.path,
                                                        "--endpoint", store.endpoint.absoluteString, "--max-attempts", "2", "--give-up-after", "3"] + arguments)
        }
        let keys = ["AWS_ACCESS_KEY_ID=\(SeaweedFS.accessKey)", "AWS_SECRET_ACCESS_KEY=\(SeaweedFS.secretKey)"]
        let good = try await publish(keys, ["--to", store.target("maps"), "--verbose"])
        #expect(good.status == 0, "\(good.standardError)")
        let (before, beforeBytes) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
        let keysBefore = try await PublishSupport.listing(store, prefix: "maps")
        try await PublishSupport.revise(workspace, step: 1)

        let wrongSecret = "wrong-Secret/Also+Never-Logged-91b"
        let cases: [(environment: [String], arguments: [String], status: Int32, words: [String])] = [
            (["AWS_ACCESS_KEY_ID=\(SeaweedFS.accessKey)", "AWS_SECRET_ACCESS_KEY=\(wrongSecret)"], ["--to", store.target("maps"), "--verbose"], 1,
             ["SignatureDoesNotMatch", "check AWS_SECRET_ACCESS_KEY"]),
            ([], ["--to", store.target("maps"), "--credentials-file", try store.credentialsFile(secret: wrongSecret).path], 1,
             ["SignatureDoesNotMatch", "or the credentials file"]),
            (["AWS_ACCESS_KEY_ID=AKIANOSUCHKEY0000000", "AWS_SECRET_ACCESS_KEY=\(wrongSecret)"], ["--to", store.target("maps")], 1,
             ["InvalidAccessKeyId", "check AWS_ACCESS_KEY_ID"]),
            (keys, ["--to", "s3://no-such-bucket/maps"], 1, ["NoSuchBucket", "create it or check --to"]),
            ([], ["--to", store.target("maps")], 1, ["no credentials for the store", "AWS_ACCESS_KEY_ID"]),
            (keys, ["--to", "http://quakes/maps"], 64, ["is not s3://BUCKET/PREFIX"]),
            (keys, ["--to", "s3://quakes/../maps"], 64, ["prefix must be path segments"]),
            (keys, ["--to", store.target("maps"), "--keep", "0"], 64, ["--keep"]),
        ]
        var outputs = [good.standardError, good.standardOutput]
        for c in cases {
            let outcome = try await publish(c.environment, c.arguments)
            #expect(outcome.status == c.status, "\(c.arguments): \(outcome.standardError)")
            for word in c.words { #expect(outcome.standardError.contains(word), "\(c.arguments): \(outcome.standardError)") }
            outputs += [outcome.standardError, outcome.standardOutput]
        }
        // Nothing changed in the store.
        let (after, afterBytes) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
        #expect(after == before && afterBytes == beforeBytes)
        #expect(try await PublishSupport.listing(store, prefix: "maps") == keysBefore)
        // The secrets are nowhere: not in what was printed, not in the workspace (run history, scratch files).
        let status = try await QuakeBakeCLI.run(["status", "--workspace", workspace.path])
        #expect(status.standardOutput.contains("SignatureDoesNotMatch"), "the refused run is in the history: \(status.standardOutput)")
        for text in outputs + [status.standardOutput, status.standardError] {
            #expect(!text.contains(SeaweedFS.secretKey) && !text.contains(wrongSecret))
        }
        #expect(try !PublishFlowTests.anyFileHolds(SeaweedFS.secretKey, under: workspace))
        #expect(try !PublishFlowTests.anyFileHolds(wrongSecret, under: workspace))
    }

    @Test func aStoreThatDiesMidPublishGives75AndTheNextRunConverges() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-store-dies")
        let workspace = try await PublishSupport.workspace(directory)
        #expect(try await PublishSupport.publish(store, workspace: workspace, prefix: "maps").status == 0)
        let (before, _) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
        try await PublishSupport.revise(workspace, step: 1)

        // The store is gone for the publish at its first upload (the request is not passed on; every
        // connection closed, new ones refused), as a store that dies then, at that point whatever the load.
        let relay = try CuttingRelay(upstreamPort: UInt16(try #require(store.endpoint.port)), cutAt: "PUT /")
        defer { relay.cut() }
        let failed = try await QuakeBakeCLI.run(["publish", "--workspace", workspace.path, "--to", store.target("maps"), "--endpoint", relay.url.absoluteString,
                                                 "--credentials-file", try store.credentialsFile().path, "--verbose", "--max-attempts", "3", "--give-up-after", "4"])
        #expect(relay.wasCut, "the publish put nothing: \(failed.standardError)")
        #expect(failed.status == 75, "\(failed.standardError)")
        #expect(failed.standardError.contains("the store did not answer") && failed.standardError.contains("the next publish resumes"), "\(failed.standardError)")

        #expect(try await PublishSupport.pointer(store, prefix: "maps")?.0 == before, "the pointer moved though the publish failed")
        #expect(try await PublishSupport.check(store, prefix: "maps").problems == [])
        let rerun = try await PublishSupport.publish(store, workspace: workspace, prefix: "maps")
        #expect(rerun.status == 0, "\(rerun.standardError)")
        let (version, problems) = try await PublishSupport.check(store, prefix: "maps")
        #expect(problems == [] && version != before.bundleVersion)
    }

    /// A file of three parts (any file the manifest lists is published: a basemap, say), the
    /// publish killed while they go up: the next publish aborts the upload left and converges.
    /// A relay holds the second part's request, so that the kill comes with one part in the store
    /// and the upload unfinished, however fast the machine (a kill when the log first names a part
    /// came after the whole publish on a fast one).
    @Test func anUploadInPartsLeftByAKilledPublishIsAborted() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-parts")
        let workspace = try await PublishSupport.workspace(directory)
        let bundle = directory.path("bundle")
        try FileManager.default.copyItem(at: try PublishSupport.currentBundle(workspace), to: bundle)
        try Self.addFile("basemap.pmtiles", bytes: 20 << 20, to: bundle)

        let relay = try CuttingRelay(upstreamPort: UInt16(try #require(store.endpoint.port)), at: "?partNumber=", occurrence: 2, action: .hold)
        defer { relay.cut() }
        let arguments = ["publish", "--workspace", workspace.path, "--bundle", bundle.path, "--to", store.target("maps"),
                         "--credentials-file", try store.credentialsFile().path, "--verbose"]
        let log = directory.path("publish.log")
        let process = try QuakeBakeCLI.start(arguments + ["--endpoint", relay.url.absoluteString], standardError: log)
        try await waitUntil("the second part held", timeout: 120) { relay.isHolding || !process.isRunning }
        #expect(process.isRunning, "the publish ended before its second part: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        kill(process.processIdentifier, SIGKILL)
        try await waitUntil("publish to end", timeout: 60) { !process.isRunning }
        relay.cut()
        let unfinished = try await store.s3.unfinishedUploads(bucket: store.name)
        #expect(unfinished.contains { $0.key.contains("basemap") || $0.key.hasSuffix(".pmtiles") }, "no upload left to abort: \(unfinished)")
        #expect(try await PublishSupport.pointer(store, prefix: "maps") == nil)

        let rerun = try await QuakeBakeCLI.run(arguments + ["--endpoint", store.endpoint.absoluteString])
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardError.contains("aborting an unfinished upload"), "\(rerun.standardError)")
        let left = try await store.s3.unfinishedUploads(bucket: store.name)
        #expect(left.isEmpty, "\(left)")
        let (pointer, _) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
        let basemap = try #require(pointer.files.first { $0.name == "basemap.pmtiles" })
        #expect(basemap.bytes == 20 << 20 && basemap.key.hasSuffix(".pmtiles"))
        #expect(try await PublishSupport.check(store, prefix: "maps").problems == [])
    }

    /// Adds a file of `bytes` seeded bytes to the bundle and to its manifest's list.
    static func addFile(_ name: String, bytes: Int, to bundle: URL) throws {
        var generator = SeededGenerator(seed: 9)
        var data = Data(count: bytes)
        data.withUnsafeMutableBytes { buffer in
            for i in stride(from: 0, to: bytes, by: 8) { buffer.storeBytes(of: generator.next(), toByteOffset: i, as: UInt64.self) }
        }
        try data.write(to: bundle.appendingPathComponent(name))
        let manifestURL = bundle.appendingPathComponent("manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        manifest["files"] = (manifest["files"] as? [Any] ?? []) + [["path": name, "bytes": bytes, "sha256": SHA256.hex(data)]]
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
    }
}

import Foundation
import Logging
import QuakeBundleKit
import QuakeCommon
import QuakePublish
import Testing
import TestSupport

/// Issue 44 in one flow against a real store (SeaweedFS, signatures checked): the first
/// publish, read back by botocore and by plain HTTP; the same again (nothing new); cron
/// runs' worth of changes published over a base with a chain of deltas; the published
/// PMTiles tile for tile the bundle's; MapLibre Native drawing the published style straight
/// from the store; a new base once the chain passes its bound; pruning to --keep; status;
/// and the secret nowhere. (PMTilesCompositionTests publishes a bundle big enough for the
/// PMTiles object to be assembled in the store.)
@Suite(.serialized) struct PublishFlowTests {
    @Test func publishesChainsAndPrunes() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-flow")
        let workspace = try await PublishSupport.workspace(directory)
        let publicURL = store.publicURL("maps/")

        // 1. The first publish: every file, the pointer last.
        let first = try await PublishSupport.publish(store, workspace: workspace, prefix: "maps",
                                                     extra: ["--verbose", "--keep", "2", "--public-url", publicURL.absoluteString])
        #expect(first.status == 0, "\(first.standardError)")
        let v1 = try String(contentsOf: PublishSupport.currentBundle(workspace).appendingPathComponent("manifest.json"), encoding: .utf8)
        let (pointer1, _) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
        #expect(v1.contains("\"\(pointer1.bundleVersion)\""))
        #expect(try await PublishSupport.check(store, prefix: "maps").problems == [])
        let bundleFiles = Set(try Self.manifestPaths(PublishSupport.currentBundle(workspace)).filter { !$0.hasPrefix("deltas/") }) .union(["manifest.json"])
        #expect(Set(pointer1.files.map(\.name)) == bundleFiles)
        #expect(first.standardError.contains("uploading objects/") && first.standardError.contains("not in the store"))
        // botocore lists and reads the same.
        let keys = try await PublishSupport.listing(store, prefix: "maps")
        #expect(keys.contains("current.json") && keys.filter { $0.hasPrefix("history/") }.count == 1)
        #expect(Set(pointer1.files.map(\.key)).isSubset(of: Set(keys)))
        let copied = directory.path("current-by-botocore.json")
        try await store.s3.get(bucket: store.name, key: "maps/current.json", to: copied)
        #expect(try JSONDecoder().decode(PublishedPointer.self, from: Data(contentsOf: copied)) == pointer1)
        try await Self.checkMetadata(store, pointer: pointer1)

        // 2. Nothing new: nothing uploaded, the pointer as it was.
        let again = try await PublishSupport.publish(store, workspace: workspace, prefix: "maps", extra: ["--keep", "2", "--public-url", publicURL.absoluteString])
        #expect(again.status == 0 && again.standardError.contains("nothing new"), "\(again.standardError)")

        // 3. Cron runs: the five newest quakes revised, exported, published.
        var pointers = [pointer1]
        var outputs = [first.standardError, again.standardError]
        for step in 1...4 {
            try await PublishSupport.revise(workspace, step: step)
            let bundle = try PublishSupport.currentBundle(workspace)
            let run = try await PublishSupport.publish(store, workspace: workspace, prefix: "maps", extra: ["--keep", "2", "--public-url", publicURL.absoluteString])
            #expect(run.status == 0, "step \(step): \(run.standardError)")
            outputs.append(run.standardError)
            let (pointer, _) = try #require(try await PublishSupport.pointer(store, prefix: "maps"))
            #expect(try await PublishSupport.check(store, prefix: "maps").problems == [], "step \(step)")
            try await Self.checkChain(pointer, previous: pointers, bundle: bundle)
            try await Self.checkPMTiles(store, pointer: pointer, bundle: bundle, step: step)
            pointers.append(pointer)
        }
        // The first revision keeps version 1 as the base and adds one delta; a later one moves the base.
        #expect(pointers[1].files.first { $0.name == "quakes.sqlite" }?.bundleVersion == pointer1.bundleVersion)
        #expect(pointers[1].deltas.map(\.baseVersion) == [pointer1.bundleVersion])
        #expect(pointers.dropFirst(2).contains { $0.files.first { $0.name == "quakes.sqlite" }?.bundleVersion == nil },
                "the base never moved: \(pointers.map { $0.files.first { $0.name == "quakes.sqlite" }?.bundleVersion ?? "own" })")

        // 4. MapLibre Native draws the published style from the store as it draws the bundle.
        let last = try #require(pointers.last)
        let pixels = try await PublishSupport.quakePixels(publicURL: publicURL, pointer: last, bundle: PublishSupport.currentBundle(workspace),
                                                          views: ["chile:-71:-30:4", "world:0:0:1"], pictures: directory)
        for (view, (published, own)) in pixels { #expect(published > 100 && published == own, "\(view): \(published) \(own)") }

        // 5. Pruned to --keep 2: every object in the store is named by a kept version, and some went.
        let history = try await PublishSupport.listing(store, prefix: "maps").filter { $0.hasPrefix("history/") }
        #expect(history.count == 2)
        let kept = pointers.suffix(2).reduce(into: Set<String>()) { $0.formUnion($1.files.map(\.key) + $1.deltas.flatMap { $0.files.map(\.key) }) }
        let objects = Set(try await PublishSupport.listing(store, prefix: "maps").filter { $0.hasPrefix("objects/") })
        #expect(objects == kept)
        #expect(outputs.contains { $0.contains("pruned") })

        // 6. status shows the last publish; the secret is nowhere.
        let status = try await QuakeBakeCLI.run(["status", "--workspace", workspace.path])
        #expect(status.standardOutput.contains("published: \(store.target("maps")), version \(last.bundleVersion)"), "\(status.standardOutput)")
        for text in outputs + [first.standardOutput, status.standardOutput] {
            #expect(!text.contains(SeaweedFS.secretKey))
        }
        #expect(try !Self.anyFileHolds(SeaweedFS.secretKey, under: workspace))
    }

    /// Each kind of object has its Content-Type; objects are immutable for caches, the pointer is not.
    static func checkMetadata(_ store: StoreBucket, pointer: PublishedPointer) async throws {
        let expected = ["quakes.pmtiles": "application/vnd.pmtiles", "quakes.mbtiles": "application/vnd.sqlite3", "quakes.sqlite": "application/gzip",
                        "style.json": "application/json", "preview.html": "text/html; charset=utf-8", "recent.geojson": "application/geo+json"]
        for (name, type) in expected {
            guard let file = pointer.files.first(where: { $0.name == name }) else { continue }
            let response = try await PublishSupport.request(store.publicURL("maps/\(file.key)"), method: "HEAD")
            #expect(response.header("Content-Type") == type, "\(name)")
            #expect(response.header("Cache-Control") == "public, max-age=31536000, immutable", "\(name)")
        }
        let current = try await PublishSupport.request(store.publicURL("maps/current.json"), method: "HEAD")
        #expect(current.header("Cache-Control") == "no-cache")
        #expect(current.header("Content-Type") == "application/json")
    }

    /// The pointer's deltas lead from each older version to its own, within the bounds, and a
    /// new install downloads at most 1.3 times the compressed bundle.
    static func checkChain(_ pointer: PublishedPointer, previous: [PublishedPointer], bundle: URL) async throws {
        let base = pointer.files.first { $0.name == "quakes.sqlite" }?.bundleVersion
        for entry in pointer.deltas {
            #expect(entry.files.count % 2 == 0 && entry.files.count / 2 <= 16)
            #expect(entry.files.first?.baseVersion == entry.baseVersion && entry.files.last?.bundleVersion == pointer.bundleVersion)
            #expect(previous.contains { $0.bundleVersion == entry.baseVersion })
        }
        guard let base else { return }
        let entry = try #require(pointer.deltas.first { $0.baseVersion == base }, "no deltas from the base \(base)")
        let install = pointer.files.reduce(Int64(0)) { $0 + $1.bytes } + entry.files.reduce(Int64(0)) { $0 + $1.bytes }
        let database = try Gzip.compress(Data(contentsOf: bundle.appendingPathComponent("quakes.sqlite"))).count
        let whole = pointer.files.filter { $0.bundleVersion == nil }.reduce(Int64(0)) { $0 + $1.bytes }
            + Int64(database) + Int64(try Data(contentsOf: bundle.appendingPathComponent("quakes.mbtiles")).count)
        #expect(Double(install) <= 1.3 * Double(whole), "a new install downloads \(install) bytes, the bundle is \(whole)")
    }

    /// The published PMTiles object serves every tile of the bundle's own, byte for byte.
    static func checkPMTiles(_ store: StoreBucket, pointer: PublishedPointer, bundle: URL, step: Int) async throws {
        let file = try #require(pointer.files.first { $0.name == "quakes.pmtiles" })
        let json = try await WitnessScript.run("published_witness.py", [
            "pmtiles", store.publicURL("maps/\(file.key)").absoluteString, bundle.appendingPathComponent("quakes.pmtiles").path])
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(report["different"] as? Int == 0 && report["missing"] as? Int == 0 && report["extra"] as? Int == 0, "step \(step): \(report)")
        #expect((report["tiles"] as? Int ?? 0) > 50, "step \(step): \(report)")
    }

    static func manifestPaths(_ bundle: URL) throws -> [String] {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as? [String: Any]
        return (manifest?["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
    }

    /// Whether any file under `directory` holds `text`.
    static func anyFileHolds(_ text: String, under directory: URL) throws -> Bool {
        let needle = Data(text.utf8)
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
               let data = try? Data(contentsOf: url), data.range(of: needle) != nil { return true }
        }
        return false
    }
}

import Foundation
import QuakeBundleKit
import QuakeCommon
import QuakeHTTP
import Testing
import TestSupport

/// What the publish tests share: a workspace whose bundle versions change as a cron run's
/// would (the newest quakes revised), the CLI run against a store, the pointer read back.
enum PublishSupport {
    /// Indexes two real samples and exports version 1 (max zoom 6, three versions kept).
    static func workspace(_ directory: TemporaryDirectory) async throws -> URL {
        let workspace = directory.path("ws")
        for sample in ["query-m4-1921-2021.csv.gz", "feed-2.5_month-2025-10.geojson.gz"] {
            _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--quiet", "--from", TestData.usgs(sample).path]).checked()
        }
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--quiet", "--max-zoom", "6", "--keep", "3"]).checked()
        return workspace
    }

    /// Revises the `count` newest quakes of the month sample (`updated` + `step` minutes,
    /// magnitude + 0.1 × `step`), indexes them and exports: the next bundle version, with deltas.
    static func revise(_ workspace: URL, step: Int, count: Int = 5) async throws {
        let data = try Gzip.decompress(try Data(contentsOf: TestData.usgs("feed-2.5_month-2025-10.geojson.gz")))
        var collection = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        // Written out with its types: as one expression each, these took the type checker seconds.
        func time(_ feature: [String: Any]) -> Int64 {
            let properties = feature["properties"] as? [String: Any]
            return properties?["time"] as? Int64 ?? 0
        }
        let newest = features.sorted { time($0) > time($1) }
        collection["features"] = newest.prefix(count).map { feature -> [String: Any] in
            var revised = feature
            var properties = feature["properties"] as? [String: Any] ?? [:]
            let updated: Int64 = properties["updated"] as? Int64 ?? 0
            properties["updated"] = updated + Int64(step) * 60_000
            let magnitude: Double = properties["mag"] as? Double ?? 2.5
            let tenths: Double = ((magnitude + 0.1 * Double(step)) * 10).rounded()
            properties["mag"] = tenths / 10
            revised["properties"] = properties
            return revised
        }
        let file = workspace.deletingLastPathComponent().appendingPathComponent("revision-\(step).geojson")
        try JSONSerialization.data(withJSONObject: collection).write(to: file)
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--quiet", "--from", file.path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--quiet", "--max-zoom", "6", "--keep", "3"]).checked()
    }

    /// The current bundle's version directory.
    static func currentBundle(_ workspace: URL) throws -> URL {
        workspace.appendingPathComponent("bundles/current").resolvingSymlinksInPath()
    }

    /// `quake-bake publish` to `PREFIX` in `store` with a credentials file.
    static func publish(_ store: StoreBucket, workspace: URL, prefix: String, extra: [String] = [],
                        secret: String = SeaweedFS.secretKey) async throws -> QuakeBakeCLI.Outcome {
        try await QuakeBakeCLI.run(["publish", "--workspace", workspace.path, "--to", store.target(prefix),
                                    "--endpoint", store.endpoint.absoluteString, "--credentials-file", try store.credentialsFile(secret: secret).path,
                                    "--max-attempts", "3", "--give-up-after", "5"] + extra)
    }

    /// Plain HTTP for the tests' own reads (anonymous, as a web client reads a public bucket).
    /// (Not URLSession: on Linux its async API crashes when tasks overlap, FoundationNetworking's
    /// "task that is not in the registry".)
    static let http = HTTPClient(timeouts: HTTPTimeouts(connect: 30, read: 60, deadline: 120))

    /// `method` of `url`: the answer, its body in memory.
    static func request(_ url: URL, method: String = "GET") async throws -> HTTPResponse {
        try await http.send(HTTPRequest(method: method, url: url), into: .memory(limit: 64 << 20))
    }

    /// The pointer under `prefix`, read as a web client reads it; nil when there is none.
    static func pointer(_ store: StoreBucket, prefix: String) async throws -> (PublishedPointer, Data)? {
        let answer = try await request(store.publicURL("\(prefix)/current.json"))
        guard answer.status == 200 else { return nil }
        return (try JSONDecoder().decode(PublishedPointer.self, from: answer.body), answer.body)
    }

    /// What is wrong with the publication under `prefix`, read back by the HTTP witness (every
    /// object the pointer names, its size and sha256); its version.
    static func check(_ store: StoreBucket, prefix: String) async throws -> (version: String, problems: [String]) {
        let json = try await WitnessScript.run("published_witness.py", ["check", store.publicURL("\(prefix)/").absoluteString])
        let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return (report["version"] as? String ?? "", report["problems"] as? [String] ?? ["no report"])
    }

    /// MapLibre Native draws the style the pointer under `publicURL` names, straight from the
    /// store, and the bundle's own style over its own files, at `views` (`name:lon:lat:zoom`):
    /// the quake pixels of each, by view name (published, own).
    static func quakePixels(publicURL: URL, pointer: PublishedPointer, bundle: URL, views: [String],
                            pictures directory: TemporaryDirectory) async throws -> [String: (Int, Int)] {
        let style = try #require(pointer.files.first { $0.name == "style.json" })
        let published = directory.path("published"), own = directory.path("own")
        for folder in [published, own] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let remote = try JSONSerialization.jsonObject(with: await WitnessScript.run(
            "render_style.py", ["--style-url", publicURL.appendingPathComponent(style.key).absoluteString, published.path] + views)) as? [String: [String: Int]]
        let local = try JSONSerialization.jsonObject(with: await WitnessScript.run(
            "render_style.py", [bundle.path, own.path] + views)) as? [String: [String: Int]]
        return Dictionary(uniqueKeysWithValues: views.map { view in
            let name = String(view.split(separator: ":")[0])
            return (name, (remote?[name]?["quake"] ?? -1, local?[name]?["quake"] ?? -2))
        })
    }

    /// Every key under `PREFIX/` of `store`, as botocore lists it (relative to the prefix).
    static func listing(_ store: StoreBucket, prefix: String) async throws -> [String] {
        try await store.s3.keys(bucket: store.name, prefix: "\(prefix)/").map { String($0.dropFirst(prefix.count + 1)) }
    }
}

import Foundation
import GRDB
import QuakeCommon
import TestSupport

/// Bundle versions made by the real `quake-bake index` and `export` from a real sample, each next
/// one a cron run's worth of revisions later: magnitudes revised, a quake moved, one deleted and
/// one new, indexed as the service would send them (a newer `updated`; a deletion as status
/// "deleted"); and quakes' details (the store's `details` table, as `fetch` and `index` leave
/// it) changed, added and removed. Every export keeps the versions before it, so each has
/// deltas from them.
final class ExportedVersions: @unchecked Sendable {
    let workspace: URL
    let out: URL
    private let exportFlags: [String]
    private let features: [[String: Any]]
    /// The version directories, oldest first.
    private(set) var directories: [URL] = []
    /// The details summaries the store holds, by quake id.
    private var details: [String: String] = [:]

    /// Indexes `sample` into a workspace under `directory` and exports the first version.
    init(in directory: URL, sample: String = "feed-all_week-2020-06.geojson.gz", exportFlags: [String] = []) async throws {
        workspace = directory.appendingPathComponent("workspace")
        out = directory.appendingPathComponent("bundles")
        self.exportFlags = ["--max-zoom", "5", "--keep", "10"] + exportFlags
        let collection = try JSONSerialization.jsonObject(with: Gzip.decompress(Data(contentsOf: TestData.usgs(sample)))) as? [String: Any]
        features = ((collection?["features"] as? [[String: Any]]) ?? []).sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--from", TestData.usgs(sample).path, "--quiet"]).checked()
        for index in 0..<4 { details[id(index)] = Self.summary(id(index), step: 0) }
        try await export()
    }

    /// The bundle versions (`bundle_version`), oldest first.
    var versions: [String] { directories.map(Self.version) }

    /// The version a bundle directory holds.
    static func version(_ directory: URL) -> String {
        String(directory.lastPathComponent.split(separator: "-", maxSplits: 1).last ?? "")
    }

    /// Revises 20 quakes (and moves, deletes and adds one), indexes that and exports the next version.
    @discardableResult
    func revise() async throws -> URL {
        let step = directories.count
        func changed(_ index: Int, _ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var feature = features[index % features.count]
            var properties = feature["properties"] as? [String: Any] ?? [:]
            properties["updated"] = (properties["updated"] as? Int64 ?? 0) + Int64(step) * 60_000
            feature["properties"] = properties
            change(&feature)
            return feature
        }
        func property(_ name: String, _ value: Any) -> (inout [String: Any]) -> Void {
            { feature in
                var properties = feature["properties"] as? [String: Any] ?? [:]
                properties[name] = value
                feature["properties"] = properties
            }
        }
        var revised = (0..<20).map { i in
            changed(step * 40 + i) { feature in
                let mag = ((feature["properties"] as? [String: Any])?["mag"] as? Double) ?? 1
                property("mag", mag + 0.1 * Double(step))(&feature)
            }
        }
        revised.append(changed(step * 40 + 20) { feature in
            var geometry = feature["geometry"] as? [String: Any] ?? [:]
            var coordinates = geometry["coordinates"] as? [Double] ?? [0, 0, 0]
            coordinates[1] = max(-89, min(89, coordinates[1] + 0.3))
            geometry["coordinates"] = coordinates
            feature["geometry"] = geometry
        })
        revised.append(changed(step * 40 + 21, property("status", "deleted")))
        revised.append(changed(step * 40 + 22) { feature in
            let id = "qbclient\(step)"
            feature["id"] = id
            property("ids", ",\(id),")(&feature)
            property("code", id)(&feature)
            property("net", "qb")(&feature)
        })
        let file = workspace.appendingPathComponent("revision-\(step).geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": revised]).write(to: file)
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--from", file.path, "--quiet"]).checked()
        // Details: one revised, one new, one gone.
        details[id(step)] = Self.summary(id(step), step: step)
        details[id(step + 3)] = Self.summary(id(step + 3), step: step)
        details[id(step - 1)] = nil
        return try await export()
    }

    /// The id of the `index`th quake of the sample (far from those `revise` changes).
    private func id(_ index: Int) -> String {
        features[(features.count - 1 - index) % features.count]["id"] as? String ?? ""
    }

    /// A details summary of the quake `id`, as `step` left it.
    private static func summary(_ id: String, step: Int) -> String {
        #"{"id":"\#(id)","pager":{"alert":"\#(["green", "yellow", "orange", "red"][step % 4])","step":\#(step)}}"#
    }

    /// Sets the store's `details` table to `details` (`index` brings it to what the fetch
    /// archive says, which here has none, so it is set again before every export).
    private func writeDetails() throws {
        let queue = try DatabaseQueue(path: workspace.appendingPathComponent("store/quakes.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM details")
            for (id, summary) in details.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO details VALUES (?, 1, 1, '2026-01-01T00:00:00Z', 1, ?)", arguments: [id, summary])
            }
        }
    }

    @discardableResult
    private func export() async throws -> URL {
        try writeDetails()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--out", out.path, "--quiet"] + exportFlags).checked()
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: out.appendingPathComponent("current").path)
        let directory = out.appendingPathComponent(target, isDirectory: true)
        precondition(directories.last != directory, "the export made no new version")
        directories.append(directory)
        return directory
    }
}

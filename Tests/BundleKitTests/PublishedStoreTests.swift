import Foundation
import QuakeBundleKit
import Testing
import TestSupport

/// Issue 45.6 on the real store: versions the real export made, each published by the real
/// `quake-bake publish` to SeaweedFS (signatures checked) and pulled by `quake-bake pull` from
/// the store's public URL, anonymously, as an app reads it; every tile, row, details row and
/// file compared with the export's own. The publisher's pointer and the client's reading of it
/// meet here (issue 44's layout): its bases, its delta chains, its gzip'd app database and
/// delta rows, the objects that ride in the PMTiles upload.
@Suite(.serialized) struct PublishedStoreTests {
    @Test func everyVersionPublishedToTheStoreIsPulledExactlyFromEveryOlderOne() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let dir = TemporaryDirectory("client-store")
        let versions = try await ExportedVersions(in: dir.url)
        let publication = StorePublication(store: store, workspace: versions.workspace, prefix: "maps")
        func pull(_ app: URL, _ extra: [String] = []) async throws -> ChildProcess.Outcome {
            try await QuakeBakeCLI.run(["pull", "--from", publication.url.absoluteString, "--to", app.path] + extra)
        }
        let app = dir.path("app")

        // v1: published, pulled whole.
        var pointers = [try await publication.publish(versions.directories[0])]
        let installed = try await pull(app)
        #expect(installed.status == 0 && installed.standardError.contains("version none → \(versions.versions[0]) downloaded whole"), "\(installed)")
        let first = try await BundleWitness.compare(app.appendingPathComponent("current"), versions.directories[0])
        #expect(first.mismatches == 0 && first.details_count == 4, "v1: \(first)")
        #expect(first.absent == (try BundleWitness.webOnly(versions.directories[0])), "the app's selection leaves the web's files: \(first.absent)")
        var held = [dir.path("held-1")]
        try FileManager.default.copyItem(at: app, to: held[0])

        // v2…v5: revised, new, moved, deleted quakes and details; each pulled by the deltas from the one before.
        for k in 2...5 {
            let bundle = try await versions.revise()
            let pointer = try await publication.publish(bundle)
            #expect(pointer.bundleVersion == versions.versions[k - 1])
            // The publisher offers a way from every version published before (within its 16 steps).
            #expect(Set(pointer.deltas.map(\.baseVersion)) == Set(versions.versions.prefix(k - 1)), "v\(k): \(pointer.deltas.map(\.baseVersion))")
            pointers.append(pointer)
            let run = try await pull(app)
            #expect(run.status == 0 && run.standardError.contains("\(versions.versions[k - 2]) → \(versions.versions[k - 1]) by deltas"), "v\(k): \(run)")
            let comparison = try await BundleWitness.compare(app.appendingPathComponent("current"), bundle)
            #expect(comparison.mismatches == 0 && comparison.details_count == 4, "v\(k) by deltas: \(comparison)")
            held.append(dir.path("held-\(k)"))
            try FileManager.default.copyItem(at: app, to: held[k - 1])
        }
        // The publisher named an older base with its chain at some point (else the base paths went untested here).
        let bases = pointers.map { $0.files.first { $0.name == "quakes.sqlite" }?.bundleVersion }
        #expect(bases.contains { $0 != nil }, "no pointer named a base: \(bases)")

        // From each older version straight to v5, by its chain.
        for (k, copy) in held.dropLast().enumerated() {
            let run = try await pull(copy)
            #expect(run.status == 0 && run.standardError.contains("\(versions.versions[k]) → \(versions.versions[4]) by deltas"), "from v\(k + 1): \(run)")
            let comparison = try await BundleWitness.compare(copy.appendingPathComponent("current"), versions.directories[4])
            #expect(comparison.mismatches == 0, "from v\(k + 1) to v5: \(comparison)")
        }

        // New installs of v5: the app's files, and every file (the PMTiles object as published:
        // assembled in the store or not, it serves every tile of the bundle's own).
        let fresh = dir.path("fresh")
        let whole = try await pull(fresh)
        #expect(whole.status == 0 && whole.standardError.contains("downloaded whole"), "\(whole)")
        let comparison = try await BundleWitness.compare(fresh.appendingPathComponent("current"), versions.directories[4])
        #expect(comparison.mismatches == 0, "a new install of v5: \(comparison)")
        let mirror = dir.path("mirror")
        let all = try await pull(mirror, ["--all-files"])
        #expect(all.status == 0, "\(all)")
        let everything = try await BundleWitness.compare(mirror.appendingPathComponent("current"), versions.directories[4])
        #expect(everything.mismatches - everything.differing.count == 0 && everything.absent.isEmpty, "every file: \(everything)")
        #expect(everything.differing.allSatisfy { $0 == "quakes.pmtiles" }, "\(everything.differing)")
        let tiles = try JSONSerialization.jsonObject(with: await WitnessScript.run("published_witness.py", [
            "pmtiles", mirror.appendingPathComponent("current/quakes.pmtiles").absoluteString,
            versions.directories[4].appendingPathComponent("quakes.pmtiles").path])) as? [String: Any]
        #expect(tiles?["different"] as? Int == 0 && tiles?["missing"] as? Int == 0 && tiles?["extra"] as? Int == 0 && (tiles?["tiles"] as? Int ?? 0) > 50,
                "\(tiles ?? [:])")

        // Already current: only the pointer is read.
        let again = try await pull(app)
        #expect(again.status == 0 && again.standardError.contains("version \(versions.versions[4]), already current"), "\(again)")
    }

    /// Issue 45.2 in the store: each hostile delta of HostileDeltaTests put into the store in
    /// place of the one `publish` put there (its object and the pointer's entry), pulled by an app
    /// holding v1. With the pointer as `publish` wrote it (v1's files as the base, the chain from
    /// it: the hostile delta is the only way to v2), the pull is refused with the reason (exit 1)
    /// and the app keeps v1, whole; with a pointer naming v2's own files, the delta is refused and
    /// v2 comes whole, exactly. The payload never runs.
    @Test func eachHostileDeltaInTheStoreIsRefusedAndChangesNothing() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let dir = TemporaryDirectory("client-store-hostile")
        let versions = try await ExportedVersions(in: dir.url)
        try await versions.revise()
        let (v1, v2) = (versions.directories[0], versions.directories[1])
        let publication = StorePublication(store: store, workspace: versions.workspace, prefix: "maps")
        try await publication.publish(v1)
        let held = dir.path("held-v1")
        _ = try await QuakeBakeCLI.run(["pull", "--from", publication.url.absoluteString, "--to", held.path, "--quiet"]).checked()
        let published = try await publication.publish(v2)
        #expect(published.files.first { $0.name == "quakes.sqlite" }?.bundleVersion == versions.versions[0], "publish keeps v1 as the base")
        // v2's own app database and tiles, put into the store beside them.
        let staging = try TestPublication(at: dir.path("staging"))
        var own: [String: PublishedFile] = [:]
        for name in ["quakes.sqlite", "quakes.mbtiles"] {
            own[name] = try staging.put(v2.appendingPathComponent(name), name: name)
            try await publication.put(staging.root.appendingPathComponent(own[name]!.key), key: own[name]!.key)
        }
        var whole = published
        whole.files = whole.files.map { own[$0.name] ?? $0 }

        for (n, hostile) in HostileDeltaTests.cases.enumerated() {
            let caseDir = dir.path("case-\(n)")
            let (deltaName, deltaFile) = try hostile.delta(from: v2, base: versions.versions[0], in: caseDir)
            var replacement = try staging.put(deltaFile, name: deltaName)
            try await publication.put(staging.root.appendingPathComponent(replacement.key), key: replacement.key)
            replacement.baseVersion = versions.versions[0]
            replacement.bundleVersion = versions.versions[1]
            for (variant, base) in [("base v1", published), ("v2's own files", whole)] {
                var pointer = base
                pointer.deltas = pointer.deltas.map { PublishedDeltas(baseVersion: $0.baseVersion, files: $0.files.map { $0.name == deltaName ? replacement : $0 }) }
                try await publication.write(pointer)
                let app = caseDir.appendingPathComponent("app-\(variant.prefix(4))")
                try FileManager.default.copyItem(at: held, to: app)
                let run = try await QuakeBakeCLI.run(["pull", "--from", publication.url.absoluteString, "--to", app.path])
                let label = "\(hostile.name), \(variant)"
                #expect(run.standardError.contains(deltaName) && run.standardError.contains(hostile.reason), "\(label): \(run.standardError)")
                let comparison: BundleWitness.Comparison
                if variant == "base v1" {
                    #expect(run.status == 1, "\(label): \(run)")
                    comparison = try await BundleWitness.compare(app.appendingPathComponent("current"), v1)
                } else {
                    #expect(run.status == 0 && run.standardError.contains("the deltas from \(versions.versions[0]) were refused")
                            && run.standardError.contains("downloaded whole"), "\(label): \(run)")
                    comparison = try await BundleWitness.compare(app.appendingPathComponent("current"), v2)
                }
                #expect(comparison.mismatches == 0, "\(label): \(comparison)")
            }
            #expect(!FileManager.default.fileExists(atPath: caseDir.appendingPathComponent("pwned.db").path), "\(hostile.name): the payload ran")
        }
    }
}

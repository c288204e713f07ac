import Foundation
import QuakeBundleKit
import QuakeCatalog
import QuakeCommon
import QuakeSynthetic
import Testing
import TestSupport

/// The PMTiles object of a cron run's publish, assembled in the store (issue 44.3): a bundle
/// big enough for S3's 5 MiB parts (a synthetic catalog of the real one's shape), its newest
/// thousand quakes and a few older ones revised twice. Each time the store copies most of the previous object
/// (`UploadPartCopy`) and the published object serves every tile of the bundle's own, byte
/// for byte (the pmtiles reader over HTTP range requests), and MapLibre Native draws it.
@Suite(.serialized) struct PMTilesCompositionTests {
    @Test func theStoreAssemblesThePMTilesFromThePreviousOne() async throws {
        let store = try await SeaweedFS.sharedBucket()
        let directory = TemporaryDirectory("publish-pmtiles")
        let workspace = directory.path("ws")
        var synthetic = SyntheticCatalog.ending(count: 45_000, seed: 44)
        var events = synthetic.events(45_000)
        let catalog = directory.path("catalog.geojson")
        try FeatureCollectionPages.writeSingleFile(events, to: catalog)
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--quiet", "--from", catalog.path]).checked()
        _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--quiet"]).checked()
        let publicURL = store.publicURL("web/")
        let arguments = ["--public-url", publicURL.absoluteString, "--verbose"]
        let first = try await PublishSupport.publish(store, workspace: workspace, prefix: "web", extra: arguments)
        #expect(first.status == 0, "\(first.standardError)")
        let bundle1 = try PublishSupport.currentBundle(workspace)
        let size = try FileManager.default.attributesOfItem(atPath: bundle1.appendingPathComponent("quakes.pmtiles").path)[.size] as? Int ?? 0
        try #require(size > 6 << 20, "the bundle's PMTiles is \(size) bytes: too small to need parts")

        // A mirror of every published file, pulled as an app pulls (QuakeBundleKit, every object checked).
        let mirror = directory.path("mirror")
        let installed = try await QuakeBakeCLI.run(["pull", "--from", publicURL.absoluteString, "--to", mirror.path, "--all-files"])
        #expect(installed.status == 0 && installed.standardError.contains("downloaded whole"), "\(installed.standardError)")

        for step in 1...2 {
            // As between two cron runs: the 1,000 newest quakes revised (in the recent layer, apart
            // from the tiles), and a few older ones whose magnitude changed (their tiles change).
            let revised = Array(events.indices.suffix(1000)) + (0..<5).map { step * 997 + $0 * 6_151 }
            for index in revised {
                events[index].updated += 60_000
                if index < events.count - 1000 { events[index].mag = ((events[index].mag ?? 2) * 10 + 3).rounded() / 10 }
            }
            let revision = directory.path("revision-\(step).geojson")
            try FeatureCollectionPages.writeSingleFile(revised.map { events[$0] }, to: revision)
            _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.path, "--quiet", "--from", revision.path]).checked()
            _ = try await QuakeBakeCLI.run(["export", "--workspace", workspace.path, "--quiet"]).checked()
            let run = try await PublishSupport.publish(store, workspace: workspace, prefix: "web", extra: arguments)
            #expect(run.status == 0, "step \(step): \(run.standardError)")
            #expect(run.standardError.contains("PMTiles composed") && run.standardError.contains("copied in the store"), "step \(step): \(run.standardError)")

            let bundle = try PublishSupport.currentBundle(workspace)
            let (pointer, _) = try #require(try await PublishSupport.pointer(store, prefix: "web"))
            let pmtiles = try #require(pointer.files.first { $0.name == "quakes.pmtiles" })
            #expect(pmtiles.sha256 != (try SHA256.hex(fileAt: bundle.appendingPathComponent("quakes.pmtiles"))), "step \(step): published whole")
            #expect(try await PublishSupport.check(store, prefix: "web").problems == [], "step \(step)")
            let json = try await WitnessScript.run("published_witness.py", [
                "pmtiles", publicURL.appendingPathComponent(pmtiles.key).absoluteString, bundle.appendingPathComponent("quakes.pmtiles").path])
            let report = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            #expect(report["different"] as? Int == 0 && report["missing"] as? Int == 0 && report["extra"] as? Int == 0, "step \(step): \(report)")
            #expect(report["clustered"] as? Bool == false, "step \(step): \(report)")

            // The mirror by deltas: the objects that rode in the PMTiles upload and were copied out
            // of it in the store come whole, and each file but the two the deltas bring up, the
            // PMTiles object and the style (rewritten for --public-url: the published one) is the
            // bundle's own, byte for byte.
            let riders = run.standardError.components(separatedBy: " other objects riding in it").first?.split(separator: "(").last.flatMap { Int($0) } ?? 0
            #expect(riders > 0, "step \(step): \(run.standardError)")
            let pulled = try await QuakeBakeCLI.run(["pull", "--from", publicURL.absoluteString, "--to", mirror.path, "--all-files"])
            #expect(pulled.status == 0 && pulled.standardError.contains("by deltas"), "step \(step): \(pulled.standardError)")
            for file in try PublishFlowTests.manifestPaths(bundle) where !file.hasPrefix("deltas/") && !["quakes.sqlite", "quakes.mbtiles", "quakes.pmtiles"].contains(file) {
                let expected = file == "style.json" ? pointer.files.first { $0.name == file }?.sha256 : try SHA256.hex(fileAt: bundle.appendingPathComponent(file))
                #expect(try SHA256.hex(fileAt: mirror.appendingPathComponent("current/\(file)")) == expected, "step \(step): \(file)")
            }

            let status = try await QuakeBakeCLI.run(["status", "--json", "--workspace", workspace.path])
            let summary = try #require(((try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])?["publish"]
                                        as? [String: Any])?["summary"] as? [String: Any])
            #expect(summary["copiedBytes"] as? Int ?? 0 > 1 << 20, "step \(step): \(summary)")
        }

        // The same version again: the assembled object stands, nothing is uploaded.
        let again = try await PublishSupport.publish(store, workspace: workspace, prefix: "web", extra: arguments)
        #expect(again.status == 0 && again.standardError.contains("nothing new"), "\(again.standardError)")

        // MapLibre Native draws the assembled object with the published style, straight from the store.
        let (pointer, _) = try #require(try await PublishSupport.pointer(store, prefix: "web"))
        let pixels = try await PublishSupport.quakePixels(publicURL: publicURL, pointer: pointer, bundle: PublishSupport.currentBundle(workspace),
                                                          views: ["california:-120:37:5", "world:-150:40:1"], pictures: directory)
        // At zoom 1 the heatmap draws over most quakes (it fades into them by zoom 5): fewer of their pixels show.
        for (view, (published, own)) in pixels { #expect(published > (view == "world" ? 200 : 1000) && published == own, "\(view): \(published) \(own)") }
    }
}

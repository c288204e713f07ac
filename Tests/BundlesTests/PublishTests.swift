import Foundation
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Version directories, the atomic `current` switch, keep-K, "nothing changed", crashes.
@Suite struct PublishTests {
    static let sample = "feed-2.5_month-2025-10.geojson.gz"

    private func current(_ out: URL) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: out.appendingPathComponent("current").path)
    }

    private func versions(_ out: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("v") }.sorted()
    }

    @Test func nothingChangedMakesNoNewVersion() throws {
        let dir = TemporaryDirectory("publish")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        let second = try ExportHelpers.export(store, to: dir.path("bundles"))
        #expect(first.changed && !second.changed)
        #expect(second.directory == first.directory && second.bundleVersion == first.bundleVersion)
        #expect(second.line.contains("nothing changed"))
        #expect(try versions(dir.path("bundles")) == [first.directory.lastPathComponent])
        let other = try ExportHelpers.export(store, to: dir.path("bundles")) { $0.thinning.perCell = 2 }
        #expect(other.changed && other.bundleVersion != first.bundleVersion, "other options, other bundle")
    }

    /// A run killed after the switch but before its event cache was renamed into place leaves
    /// the cache's temporary file; the next run removes it even when nothing changed (found by
    /// `Scripts/chaos 100`).
    @Test func anExportThatChangesNothingStillRemovesDebris() throws {
        let dir = TemporaryDirectory("publish")
        let out = dir.path("bundles")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: out)
        let debris = [out.appendingPathComponent(".export-cache/events.bin.qbtmp"), out.appendingPathComponent("current.qbtmp")]
        try Data("half-written".utf8).write(to: debris[0])
        try FileManager.default.createSymbolicLink(atPath: debris[1].path, withDestinationPath: first.directory.lastPathComponent)
        let second = try ExportHelpers.export(store, to: out)
        #expect(first.changed && !second.changed)
        for file in debris { #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) removed") }
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(".export-cache/events.bin").path), "the cache itself stays")
    }

    @Test func publishingSwitchesCurrentAndKeepsTheLastK() throws {
        let dir = TemporaryDirectory("publish")
        let out = dir.path("bundles")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        var published: [String] = []
        for round in 0..<4 {
            if round > 0 {
                var event = try #require(try store.events().values.min { $0.id < $1.id })
                event.mag = Double(round)
                event.updated += Int64(round)
                try store.upsert([event])
            }
            let summary = try ExportHelpers.export(store, to: out) { $0.keep = 2; $0.thinning.maxZoom = 4 }
            #expect(summary.changed)
            published.append(summary.directory.lastPathComponent)
            #expect(try current(out) == published.last)
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("current/manifest.json").path))
        }
        #expect(published.map { $0.prefix(7) } == ["v000001", "v000002", "v000003", "v000004"])
        #expect(try versions(out) == Array(published.suffix(2)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".qbtmp") }.isEmpty)
    }

    @Test func aKilledExportLeavesTheCurrentBundleWhole() async throws {
        let dir = TemporaryDirectory("publish-kill")
        let out = dir.path("bundles")
        let store = try TestStore(workspace: dir.url, samples: ["feed-all_week-2018-06.geojson.gz", "query-conus-m2.5-2019.geojson.gz"])
        let arguments = ["export", "--workspace", dir.url.path, "--quiet", "--max-zoom", "12"]
        #expect(try await QuakeBakeCLI.run(arguments).status == 0)
        let before = try current(out)

        var event = try #require(try store.events().values.min { $0.id < $1.id })
        event.mag = 9.5
        event.updated += 1
        try store.upsert([event])
        // Killed while the tiles are made, while the archives are written, and just before publishing.
        for marker in [nil, "quakes.pmtiles", "manifest.json"] {
            _ = try await QuakeBakeCLI.run(arguments, killedWhen: { Self.versionBeingWritten(in: out, holds: marker) })
            // Whatever the moment, `current` names a complete bundle whose files match its manifest.
            let now = try current(out)
            try Self.verify(out.appendingPathComponent(now))
            if now != before { break }
        }
        let finish = try await QuakeBakeCLI.run(arguments)
        #expect(finish.status == 0)
        try Self.verify(out.appendingPathComponent(try current(out)))
        #expect(try current(out) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".qbtmp") }.isEmpty, "debris removed")
    }

    /// Whether the version being written under `out` (`.v….qbtmp/`) exists and holds the file `name` (any, when `nil`).
    private static func versionBeingWritten(in out: URL, holds name: String?) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        return names.contains { directory in
            directory.hasPrefix(".v") && directory.hasSuffix(AtomicFile.temporarySuffix)
                && (name.map { FileManager.default.fileExists(atPath: out.appendingPathComponent(directory).appendingPathComponent($0).path) } ?? true)
        }
    }

    /// Checks every file a manifest lists against its size and sha256.
    static func verify(_ directory: URL) throws {
        let json = try JSON(reading: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
        guard case .array(let files)? = json["files"] else { Issue.record("no file list in \(directory.path)"); return }
        #expect(files.count >= 8)
        for file in files {
            let data = try Data(contentsOf: directory.appendingPathComponent(file["path"]!.string!))
            #expect(file["sha256"]?.string == SHA256.hex(data), "\(file["path"]!.string!) in \(directory.lastPathComponent)")
        }
    }
}

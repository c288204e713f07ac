import Foundation
import QuakeBundleKit
import Testing
import TestSupport

/// Issue 45.1 and 45.6: `BundleClient.update()` over a publication laid out as the design says
/// (TestPublication, from versions the real export made), over `file://` and over real HTTP:
/// a new install, version after version by deltas, from every older version, a base and its
/// chain; every tile, row and file compared with the export's own.
@Suite struct UpdateTests {
    @Test func aNewInstallHoldsExactlyTheExportsVersionAndTheNextUpdateFindsItCurrent() async throws {
        let dir = TemporaryDirectory("client-install")
        let versions = try await ExportedVersions(in: dir.url)
        try await versions.revise()
        try await versions.revise()
        let publication = try TestPublication(at: dir.path("publication"))
        try publication.publish(versions.directories)
        let client = BundleClient(source: publication.root, directory: dir.path("app"))

        let installed = try await client.update()
        #expect(installed.way == .full && installed.previousVersion == nil && installed.version == versions.versions[2])
        let newest = versions.directories[2]
        let comparison = try await BundleWitness.compare(client.currentDirectory, newest)
        #expect(comparison.mismatches == 0 && comparison.rows_count > 4_000 && comparison.tiles_count > 100, "\(comparison)")
        #expect(comparison.absent == (try BundleWitness.webOnly(newest)), "the app's selection leaves the web's files: \(comparison.absent)")
        #expect(client.heldVersion == versions.versions[2])

        let again = try await client.update()
        let pointerBytes = try Data(contentsOf: publication.root.appendingPathComponent("current.json")).count
        #expect(again.way == .alreadyCurrent && again.downloadedBytes == Int64(pointerBytes), "\(again)")

        let mirror = BundleClient(source: publication.root, directory: dir.path("mirror"), files: .all)
        _ = try await mirror.update()
        let whole = try await BundleWitness.compare(mirror.currentDirectory, newest)
        #expect(whole.mismatches == 0 && whole.absent.isEmpty, "with every file: \(whole)")

        // The app's directory, now with every file: the version is held, only the files it lacked come.
        let widened = try await BundleClient(source: publication.root, directory: dir.path("app"), files: .all).update()
        let published = try publication.pointer()
        let added = try BundleWitness.webOnly(newest).reduce(Int64(pointerBytes)) { sum, name in
            sum + (published.files.first { $0.name == name }?.bytes ?? 0)
        }
        #expect(widened.way == .alreadyCurrent && widened.downloadedBytes == added, "\(widened)")
        let all = try await BundleWitness.compare(client.currentDirectory, newest)
        #expect(all.mismatches == 0 && all.absent.isEmpty, "widened: \(all)")
    }

    /// Publish v1, pull; then v2…v5, each pulled in turn by deltas over HTTP (only the pointer, the
    /// step's deltas and the files whose bytes changed are downloaded); then from a copy of each
    /// older version straight to v5.
    @Test func versionAfterVersionByDeltasAndFromEveryOlderVersionOverHTTP() async throws {
        let dir = TemporaryDirectory("client-deltas")
        let versions = try await ExportedVersions(in: dir.url)
        let publication = try TestPublication(at: dir.path("publication"))
        let server = try ObjectServer(root: publication.root)
        let app = dir.path("app")
        let client = BundleClient(source: server.url, directory: app)
        var previous = try publication.publish(versions.directories)
        #expect(try await client.update().way == .full)
        var held = [dir.path("held-1")]
        try FileManager.default.copyItem(at: app, to: held[0])

        for k in 2...5 {
            try await versions.revise()
            let pointer = try publication.publish(versions.directories)
            try server.clearLog()
            let update = try await client.update()
            #expect(update.way == .deltas && update.previousVersion == versions.versions[k - 2] && update.version == versions.versions[k - 1], "\(update)")
            let comparison = try await BundleWitness.compare(client.currentDirectory, versions.directories[k - 1])
            #expect(comparison.mismatches == 0, "v\(k) by deltas: \(comparison)")
            // Downloaded: the pointer, this step's deltas, and the files (of the app's, the synced two aside) whose objects changed.
            let step = pointer.deltas.first { $0.baseVersion == versions.versions[k - 2] }!.files.map(\.key)
            let changed = pointer.files.filter { file in
                BundleFileSelection.app.contains(file.name) && !["quakes.sqlite", "quakes.mbtiles"].contains(file.name)
                    && previous.files.first { $0.name == file.name } != file
            }.map(\.key)
            let requested = try server.requests().map { String($0.path.dropFirst()) }
            #expect(requested.sorted() == (["current.json"] + step + changed).sorted(), "v\(k)")
            #expect(try server.bytesSent() == update.downloadedBytes, "what the client counts is what the server sent")
            previous = pointer
            held.append(dir.path("held-\(k)"))
            try FileManager.default.copyItem(at: app, to: held[k - 1])
        }
        for (k, copy) in held.dropLast().enumerated() {
            let update = try await BundleClient(source: server.url, directory: copy).update()
            #expect(update.way == .deltas && update.previousVersion == versions.versions[k], "from v\(k + 1): \(update)")
            let comparison = try await BundleWitness.compare(copy.appendingPathComponent("current"), versions.directories[4])
            #expect(comparison.mismatches == 0, "from v\(k + 1) to v5: \(comparison)")
        }
    }

    /// A publication whose `quakes.sqlite` and `quakes.mbtiles` are an older version's (a base)
    /// with the chain from it: a new install downloads the base and applies the chain; an app
    /// older than the base has no chain of its own and downloads the same way.
    @Test func aBaseAndItsChainForANewInstallAndForAnAppOlderThanTheBase() async throws {
        let (dir, versions, publication, old) = try await installed("client-base")
        for _ in 2...4 { try await versions.revise() }
        let pointer = try publication.publish(versions.directories, base: 1)
        #expect(pointer.deltas.map(\.baseVersion) == Array(versions.versions[1...2]))
        #expect(pointer.files.first { $0.name == "quakes.sqlite" }?.bundleVersion == versions.versions[1])

        for client in [BundleClient(source: publication.root, directory: dir.path("new-app")), old] {
            let update = try await client.update()
            #expect(update.way == .full && update.version == versions.versions[3], "\(update)")
            let comparison = try await BundleWitness.compare(client.currentDirectory, versions.directories[3])
            #expect(comparison.mismatches == 0, "\(client.directory.lastPathComponent): \(comparison)")
        }
    }

    /// A held version whose record is gone is not trusted (downloaded whole again, beside it, and
    /// switched to without removing the one `current` leads to first); a `current` that is not a
    /// link is not this library's, and is left alone with a message.
    @Test func aLocalDirectoryNotAsTheLibraryLeftItIsNotTrusted() async throws {
        let (dir, versions, publication, client) = try await installed("client-local")
        try FileManager.default.removeItem(at: client.currentDirectory.appendingPathComponent(".installed.json"))
        #expect(client.heldVersion == nil)

        let update = try await client.update()
        #expect(update.way == .full && update.previousVersion == nil, "\(update)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: client.currentDirectory.path) == "versions/\(versions.versions[0])+1")
        let comparison = try await BundleWitness.compare(client.currentDirectory, versions.directories[0])
        #expect(comparison.mismatches == 0, "\(comparison)")

        let other = dir.path("other")
        try FileManager.default.createDirectory(at: other.appendingPathComponent("current"), withIntermediateDirectories: true)
        await #expect(throws: BundleClientError(.local, "\(other.path)/current is not the link this library keeps there: move it away first")) {
            try await BundleClient(source: publication.root, directory: other).update()
        }
    }

    /// A publication of a bundle with thousands of quakes' details (the pointer names each
    /// `details/<id>.json`, as `publish` does: a thousand or so on the real catalog) is read: the
    /// app's selection leaves them on the server, a mirror takes them.
    @Test func aPointerNamingThousandsOfDetailsFilesIsRead() async throws {
        let dir = TemporaryDirectory("client-many")
        let versions = try await ExportedVersions(in: dir.url)
        let publication = try TestPublication(at: dir.path("publication"))
        var pointer = try publication.publish(versions.directories)
        let summary = dir.path("summary.json")
        try Data(#"{"id":"x"}"#.utf8).write(to: summary)
        let object = try publication.put(summary, name: "details/x.json")
        pointer.files += (0..<5_000).map { i in
            var file = object
            file.name = "details/qb\(i).json"
            return file
        }
        try publication.write(pointer)
        #expect(try Data(contentsOf: publication.root.appendingPathComponent(PublishedPointer.key)).count > 1 << 20)

        let app = try await BundleClient(source: publication.root, directory: dir.path("app")).update()
        #expect(app.way == .full, "\(app)")
        let comparison = try await BundleWitness.compare(dir.path("app/current"), versions.directories[0])
        #expect(comparison.mismatches == 0 && !FileManager.default.fileExists(atPath: dir.path("app/current/details/qb0.json").path), "\(comparison)")
        let mirror = try await BundleClient(source: publication.root, directory: dir.path("mirror"), files: .all).update()
        #expect(mirror.way == .full, "\(mirror)")
        #expect(try Data(contentsOf: dir.path("mirror/current/details/qb4999.json")) == Data(#"{"id":"x"}"#.utf8))
    }

    /// A first version exported and published, and a client that installed it.
    private func installed(_ label: String) async throws -> (TemporaryDirectory, ExportedVersions, TestPublication, BundleClient) {
        let dir = TemporaryDirectory(label)
        let versions = try await ExportedVersions(in: dir.url)
        let publication = try TestPublication(at: dir.path("publication"))
        try publication.publish(versions.directories)
        let client = BundleClient(source: publication.root, directory: dir.path("app"))
        _ = try await client.update()
        return (dir, versions, publication, client)
    }
}

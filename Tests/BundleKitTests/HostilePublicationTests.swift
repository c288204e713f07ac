import Foundation
import GRDB
import QuakeBundleKit
import QuakeCommon
import Testing
import TestSupport

/// Issue 45.1 and 45.2: a pointer or a file that is not what it should be changes nothing: the
/// update is refused with the reason, the held version stays as it was, nothing is written
/// outside the local directory.
@Suite struct HostilePublicationTests {
    /// A held v1, and a publication of v2 to spoil.
    private struct Setup {
        let dir: TemporaryDirectory
        let versions: ExportedVersions
        let publication: TestPublication
        let pointer: PublishedPointer
        let app: URL

        init(_ label: String) async throws {
            dir = TemporaryDirectory(label)
            versions = try await ExportedVersions(in: dir.url)
            publication = try TestPublication(at: dir.path("publication"))
            try publication.publish([versions.directories[0]])
            app = dir.path("app")
            _ = try await BundleClient(source: publication.root, directory: app).update()
            try await versions.revise()
            pointer = try publication.publish(versions.directories)
        }

        /// The held files' digests, and every path under the test's directory but the publication's.
        func state() throws -> [String] {
            let held = try TestPublication.files(of: app.appendingPathComponent("current")).map {
                "\($0) \(try SHA256.hex(fileAt: app.appendingPathComponent("current").appendingPathComponent($0)))"
            }
            let paths = try FileManager.default.subpathsOfDirectory(atPath: dir.url.path).filter {
                !$0.hasPrefix("publication") && !$0.hasPrefix("app/downloads") && !$0.hasPrefix("workspace") && !$0.hasPrefix("bundles")
            }
            return held + paths.sorted()
        }

        /// Runs an update of the held app and returns its refusal.
        func refusal() async throws -> BundleClientError {
            do {
                let update = try await BundleClient(source: publication.root, directory: app).update()
                throw ChildProcess.Failure(description: "not refused: \(update)")
            } catch let error as BundleClientError {
                return error
            }
        }
    }

    @Test func aHostilePointerIsRefusedWithTheReasonAndChangesNothing() async throws {
        let setup = try await Setup("client-hostile-pointer")
        let before = try setup.state()
        func spoiled(_ change: (inout PublishedPointer) -> Void) -> PublishedPointer {
            var pointer = setup.pointer
            change(&pointer)
            return pointer
        }
        let style = setup.pointer.files.firstIndex { $0.name == "style.json" }!
        let cases: [(String, PublishedPointer)] = [
            ("is absolute", spoiled { $0.files[style].key = "/etc/passwd" }),
            ("holds `..`", spoiled { $0.files[style].key = "../../../outside.json" }),
            ("holds `..`", spoiled { $0.files[style].name = "../escape.json" }),
            ("holds `..`", spoiled { $0.deltas[0].files[0].key = "objects/../../x" }),
            ("not a version name", spoiled { $0.bundleVersion = "../../x" }),
            ("not a version name", spoiled { $0.deltas[0].files[1].bundleVersion = "a/b" }),
            ("outside 0…", spoiled { $0.files[style].bytes = -1 }),
            ("outside 0…", spoiled { $0.files[style].bytes = 1 << 50 }),
            ("64 lowercase hex", spoiled { $0.files[style].sha256 = "ABC" }),
            ("decodes gzip only", spoiled { $0.files[style].encoding = "br" }),
            ("its format is 2", spoiled { $0.format = 2 }),
            ("names no quakes.sqlite", spoiled { $0.files.removeAll { $0.name == "quakes.sqlite" } }),
            ("name a file twice", spoiled { $0.files.append($0.files[style]) }),
            ("more than the 20000 allowed", spoiled { p in p.files += (0..<20_000).map { PublishedFile(name: "x\($0)", key: "x\($0)", bytes: 1, sha256: String(repeating: "0", count: 64)) } }),
        ]
        for (reason, pointer) in cases {
            try setup.publication.write(pointer)
            let refusal = try await setup.refusal()
            #expect(refusal.kind == .refused && refusal.message.contains(reason), "\(reason): \(refusal)")
            #expect(try setup.state() == before, "\(reason): something changed")
        }
        for (reason, bytes) in [("not a pointer this library reads", Data("{\"format\": 1".utf8)),
                                ("more than 8388608 bytes", Data(repeating: 0x20, count: 9 << 20))] {
            try bytes.write(to: setup.publication.root.appendingPathComponent("current.json"))
            let refusal = try await setup.refusal()
            #expect(refusal.kind == .refused && refusal.message.contains(reason), "\(reason): \(refusal)")
            #expect(try setup.state() == before, "\(reason): something changed")
        }
    }

    /// Objects that are not what the pointer says: longer, other bytes, decoding to other bytes; and
    /// a whole app database with a trigger, when no delta leads around it. Each refused, nothing changed.
    @Test func aFileThatIsNotWhatThePointerSaysIsRefused() async throws {
        let setup = try await Setup("client-hostile-files")
        let root = setup.publication.root
        let style = setup.pointer.files.first { $0.name == "style.json" }!
        let database = setup.pointer.files.first { $0.name == "quakes.sqlite" }!
        let noDeltas = { (pointer: PublishedPointer) in PublishedPointer(bundleVersion: pointer.bundleVersion, files: pointer.files, deltas: []) }

        let longer = try Data(contentsOf: root.appendingPathComponent(style.key)) + Data("  ".utf8)
        try longer.write(to: root.appendingPathComponent("objects/longer.json"))
        let otherBytes = Data(repeating: 0x7b, count: Int(style.bytes))
        try otherBytes.write(to: root.appendingPathComponent("objects/other.json"))
        var withTrigger = database
        let spoiled = setup.dir.path("spoiled.sqlite")
        try FileManager.default.copyItem(at: setup.versions.directories[1].appendingPathComponent("quakes.sqlite"), to: spoiled)
        let queue = try DatabaseQueue(path: spoiled.path)
        try await queue.write { try $0.execute(sql: "CREATE TRIGGER t AFTER DELETE ON events BEGIN DELETE FROM info; END") }
        try queue.close()
        withTrigger = try setup.publication.put(spoiled, name: "quakes.sqlite")
        var otherContent = database
        otherContent.contentSHA256 = String(repeating: "a", count: 64)
        let before = try setup.state()

        let cases: [(String, PublishedPointer)] = [
            ("longer than the", replacing(style, with: PublishedFile(name: style.name, key: "objects/longer.json", bytes: style.bytes, sha256: style.sha256), in: setup.pointer)),
            ("its sha256 is not the one the pointer gives", replacing(style, with: PublishedFile(name: style.name, key: "objects/other.json", bytes: style.bytes, sha256: style.sha256), in: setup.pointer)),
            ("the pointer names objects/missing.json, which the source does not have", replacing(style, with: PublishedFile(name: style.name, key: "objects/missing.json", bytes: style.bytes, sha256: style.sha256), in: setup.pointer)),
            ("decoded, it has", replacing(database, with: otherContent, in: noDeltas(setup.pointer))),
            ("holds a `trigger` `t`", replacing(database, with: withTrigger, in: noDeltas(setup.pointer))),
        ]
        for (reason, pointer) in cases {
            try setup.publication.write(pointer)
            try? FileManager.default.removeItem(at: setup.app.appendingPathComponent("downloads"))  // no object of an earlier case helps
            let refusal = try await setup.refusal()
            #expect(refusal.kind == .refused && refusal.message.contains(reason), "\(reason): \(refusal)")
            let after = try setup.state()
            #expect(after == before, "\(reason): something changed: \(Set(after).symmetricDifference(before))")
        }
        // A new install of the spoiled database: refused, and no `current` at all.
        let fresh = setup.dir.path("fresh")
        try setup.publication.write(replacing(database, with: withTrigger, in: noDeltas(setup.pointer)))
        await #expect(throws: BundleClientError.self) { try await BundleClient(source: root, directory: fresh).update() }
        #expect(!FileManager.default.fileExists(atPath: fresh.appendingPathComponent("current").path))
    }

    /// A delta chain whose steps do not lead to the version is not applied: the version comes whole.
    @Test func aBrokenChainFallsBackToTheWholeVersion() async throws {
        let setup = try await Setup("client-broken-chain")
        var pointer = setup.pointer
        pointer.deltas[0].files.removeLast()  // the step's rows delta
        try setup.publication.write(pointer)
        let update = try await BundleClient(source: setup.publication.root, directory: setup.app).update()
        #expect(update.way == .full && update.notes.first?.contains("lacks a delta of quakes.sqlite") == true, "\(update)")
        let comparison = try await BundleWitness.compare(setup.app.appendingPathComponent("current"), setup.versions.directories[1])
        #expect(comparison.mismatches == 0, "\(comparison)")
    }

    private func replacing(_ file: PublishedFile, with other: PublishedFile, in pointer: PublishedPointer) -> PublishedPointer {
        var pointer = pointer
        pointer.files = pointer.files.map { $0.name == file.name ? other : $0 }
        return pointer
    }
}

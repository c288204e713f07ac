import Foundation
import GRDB
import QuakeBundleKit
import QuakeCommon
import Testing
import TestSupport

/// Issue 45.2: a published delta that is not what the library declares changes nothing, in the
/// client (which then downloads the version whole, exactly) and in docs/apply-delta.py (which
/// refuses with exit 1): extra columns, SQL hidden in a column name (the attack that wrote a file
/// and rewrote every `place` through the old applier), a trigger, a view, another base, damaged
/// pages, values out of bounds, an extra table, a tile outside its zoom. Each refusal names why.
@Suite struct HostileDeltaTests {
    struct Case: Sendable {
        let name: String
        let file: String  // "sqlite" or "mbtiles"
        let edit: @Sendable (URL, URL) throws -> Void  // the delta file, the directory a payload may write to
        /// A word both the client and apply-delta.py put in their reason.
        let reason: String

        /// This case's delta, made in `directory` from the bundle `next`'s own delta from
        /// `base`: its name in the bundle (`deltas/<base>.<ext>`) and the file.
        func delta(from next: URL, base: String, in directory: URL) throws -> (name: String, file: URL) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let name = "deltas/\(base).\(file)"
            let delta = directory.appendingPathComponent("delta.\(file)")
            try FileManager.default.copyItem(at: next.appendingPathComponent(name), to: delta)
            try edit(delta, directory)
            return (name, delta)
        }

        /// A case made by running `sql` in the delta file.
        static func sql(_ name: String, file: String = "sqlite", _ sql: String, reason: String) -> Case {
            Case(name: name, file: file, edit: { delta, _ in try HostileDeltaTests.sql(delta, sql) }, reason: reason)
        }
    }

    static let cases: [Case] = [
        .sql("extra column", "ALTER TABLE events ADD COLUMN extra TEXT", reason: "29 columns"),
        Case(name: "SQL in a column name", file: "sqlite", edit: { delta, dir in
            let columns = StoreColumnsList.names.dropLast().map { "\"\($0)\"" }.joined(separator: ", ")
            let payload = "url\") SELECT rowid, \(columns), NULL FROM delta.events; UPDATE main.events SET place = 'pwned'; "
                + "ATTACH DATABASE '\(dir.appendingPathComponent("pwned.db").path)' AS pw; CREATE TABLE pw.t(x); --"
            try sql(delta, "ALTER TABLE events RENAME COLUMN url TO \"\(payload.replacingOccurrences(of: "\"", with: "\"\""))\"")
        }, reason: "column 28"),
        .sql("trigger", "CREATE TRIGGER t AFTER INSERT ON deleted_events BEGIN DELETE FROM events; END", reason: "trigger"),
        .sql("view", "DROP TABLE deleted_events; CREATE VIEW deleted_events AS SELECT rowid FROM events", reason: "view"),
        .sql("another base", "UPDATE delta_info SET value = '0000000000000000' WHERE name = 'base_version'", reason: "joins"),
        Case(name: "damaged pages", file: "mbtiles", edit: { delta, _ in
            let queue = try DatabaseQueue(path: delta.path)
            let root = try queue.read { try Int.fetchOne($0, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'tiles'") } ?? 2
            try queue.close()
            var bytes = try Data(contentsOf: delta)
            let page = (Int(bytes[16]) << 8 | Int(bytes[17])) * (root - 1)
            (bytes[page + 3], bytes[page + 4]) = (0x7f, 0xff)  // the tiles' root page claims 32,767 cells
            try bytes.write(to: delta)
        }, reason: "damaged"),
        .sql("latitude out of bounds", "UPDATE events SET latitude = 95 WHERE rowid = (SELECT min(rowid) FROM events)", reason: "latitude"),
        .sql("a 2 MB place", "UPDATE events SET place = printf('%.*c', 2000000, 'x') WHERE rowid = (SELECT min(rowid) FROM events)", reason: "place"),
        .sql("extra table", "CREATE TABLE evil (x)", reason: "evil"),
        .sql("tile outside its zoom", file: "mbtiles", "INSERT INTO deleted_tiles VALUES (1, 5, 0)", reason: "consistency"),
    ]

    @Test func eachHostileDeltaIsRefusedAndTheVersionComesWhole() async throws {
        let dir = TemporaryDirectory("client-hostile")
        let versions = try await ExportedVersions(in: dir.url)
        try await versions.revise()
        let (v1, v2) = (versions.directories[0], versions.directories[1])
        let heldV1 = dir.path("held-v1")
        let first = try TestPublication(at: dir.path("publication-v1"))
        try first.publish([v1])
        _ = try await BundleClient(source: first.root, directory: heldV1).update()

        for (n, hostile) in Self.cases.enumerated() {
            let caseDir = dir.path("case-\(n)")
            let (deltaName, deltaFile) = try hostile.delta(from: v2, base: versions.versions[0], in: caseDir)

            // The client: refused with the reason, the version downloaded whole, exactly.
            let publication = try TestPublication(at: caseDir.appendingPathComponent("publication"))
            var pointer = try publication.publish([v1, v2])
            var replacement = try publication.put(deltaFile, name: deltaName)
            replacement.baseVersion = versions.versions[0]
            replacement.bundleVersion = versions.versions[1]
            pointer.deltas[0].files = pointer.deltas[0].files.map { $0.name == deltaName ? replacement : $0 }
            try publication.write(pointer)
            let app = caseDir.appendingPathComponent("app")
            try FileManager.default.copyItem(at: heldV1, to: app)
            let update = try await BundleClient(source: publication.root, directory: app).update()
            #expect(update.way == .full && update.notes.count == 1, "\(hostile.name): \(update)")
            #expect(update.notes.first?.contains(deltaName) == true && update.notes.first?.contains(hostile.reason) == true,
                    "\(hostile.name): \(update.notes)")
            let comparison = try await BundleWitness.compare(app.appendingPathComponent("current"), v2)
            #expect(comparison.mismatches == 0, "\(hostile.name): \(comparison)")

            // The reference applier: refused with the reason, the copy untouched.
            let published = caseDir.appendingPathComponent("new-bundle")
            try FileManager.default.createDirectory(at: published.appendingPathComponent("deltas"), withIntermediateDirectories: true)
            for ext in ["mbtiles", "sqlite"] {
                let name = "deltas/\(versions.versions[0]).\(ext)"
                try FileManager.default.copyItem(at: ext == hostile.file ? deltaFile : v2.appendingPathComponent(name), to: published.appendingPathComponent(name))
            }
            try manifest(of: v2, listing: published.appendingPathComponent(deltaName), as: deltaName).write(to: published.appendingPathComponent("manifest.json"))
            let copy = caseDir.appendingPathComponent("copy")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for name in ["quakes.mbtiles", "quakes.sqlite", "manifest.json"] {
                try FileManager.default.copyItem(at: v1.appendingPathComponent(name), to: copy.appendingPathComponent(name))
            }
            let before = try ["quakes.mbtiles", "quakes.sqlite"].map { try SHA256.hex(fileAt: copy.appendingPathComponent($0)) }
            let applier = try await ChildProcess.run("python3", [TestData.projectRoot.appendingPathComponent("docs/apply-delta.py").path, copy.path, published.path])
            #expect(applier.status == 1 && applier.standardError.contains(hostile.reason), "\(hostile.name): \(applier)")
            #expect(try ["quakes.mbtiles", "quakes.sqlite"].map { try SHA256.hex(fileAt: copy.appendingPathComponent($0)) } == before, "\(hostile.name)")
            #expect(!FileManager.default.fileExists(atPath: caseDir.appendingPathComponent("pwned.db").path), "\(hostile.name): the payload ran")
        }
    }

    /// v2's manifest with the entry of `name` given the size and sha256 of the file at `url`.
    private func manifest(of bundle: URL, listing url: URL, as name: String) throws -> Data {
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as! [String: Any]
        let bytes = try Data(contentsOf: url)
        manifest["deltas"] = (manifest["deltas"] as! [[String: Any]]).map { delta in
            var delta = delta
            delta["files"] = (delta["files"] as! [[String: Any]]).map { file in
                guard file["path"] as? String == name else { return file }
                return ["path": name, "bytes": bytes.count, "sha256": SHA256.hex(bytes)]
            }
            return delta
        }
        return try JSONSerialization.data(withJSONObject: manifest)
    }

    private static func sql(_ file: URL, _ sql: String) throws {
        let queue = try DatabaseQueue(path: file.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
        try queue.close()
    }
}

/// The app database's `events` columns, in order (docs/bundle.md; docs/deltas.md).
enum StoreColumnsList {
    static let names = ["id", "ids", "sources", "types", "time", "updated", "longitude", "latitude", "depth_km", "mag", "mag_type",
                        "place", "status", "event_type", "net", "code", "felt", "cdi", "mmi", "alert", "tsunami", "sig", "nst",
                        "dmin", "rms", "gap", "title", "url"]
}

import Foundation
import GRDB
import Logging
import QuakeBundles
import QuakeCommon

/// Small helpers shared by the export tests.
enum ExportHelpers {
    /// A logger that drops everything (the tests check summaries, not log lines).
    static let silentLogger = Logger(label: "export", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Exports `store` into `out` silently (or into `logger`).
    static func export(_ store: TestStore, to out: URL, logger: Logger = silentLogger,
                       _ configure: (inout ExportOptions) -> Void = { _ in }) throws -> ExportSummary {
        var options = ExportOptions()
        options.thinning.maxZoom = 7
        configure(&options)
        return try Exporter.export(store: store.url, out: out, options: options, progress: Progress.silent, logger: logger)
    }

    /// Every file under `directory`, relative path → bytes.
    static func files(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// Paths whose bytes differ between two bundle directories (or exist in one only). The deltas
    /// (`deltas/`, and their part of the manifest) are left aside: they depend on which older
    /// versions sat beside a bundle, not on its content (DeltaTests checks them). With
    /// `patchedFiles`, the files an incremental export patches (`quakes.sqlite`, `quakes.mbtiles`)
    /// are compared by what they hold (`sameSQLiteContent`), and their sizes and hashes in the
    /// manifest are left aside: a patched file lays its pages out by the history of its changes.
    /// It does not throw, so that `#expect(ExportHelpers.differences(a, b) == [])` shows the
    /// paths when it fails (what stopped the comparison is one of them).
    static func differences(_ a: URL, _ b: URL, patchedFiles: Bool = true) -> [String] {
        do {
            let left = try withoutDeltas(files(a), patchedFiles: patchedFiles), right = try withoutDeltas(files(b), patchedFiles: patchedFiles)
            return try Set(left.keys).union(right.keys).sorted().filter { path in
                guard left[path] != right[path] else { return false }
                guard patchedFiles, Self.patchedFiles.contains(path), left[path] != nil, right[path] != nil else { return true }
                return try !sameSQLiteContent(a.appendingPathComponent(path), b.appendingPathComponent(path))
            }
        } catch {
            return ["(could not compare \(a.lastPathComponent) with \(b.lastPathComponent): \(error))"]
        }
    }

    /// The files an incremental export patches rather than writes.
    static let patchedFiles: Set<String> = ["quakes.sqlite", "quakes.mbtiles"]

    private static func withoutDeltas(_ files: [String: Data], patchedFiles: Bool) throws -> [String: Data] {
        var kept = files.filter { !$0.key.hasPrefix("deltas/") }
        if let data = kept["manifest.json"], var manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
            manifest["deltas"] = nil
            manifest["files"] = (manifest["files"] as? [[String: Any]])?.filter { !(($0["path"] as? String) ?? "").hasPrefix("deltas/") }.map { file in
                guard patchedFiles, Self.patchedFiles.contains(file["path"] as? String ?? "") else { return file }
                return file.filter { $0.key != "bytes" && $0.key != "sha256" }
            }
            kept["manifest.json"] = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        }
        return kept
    }

    /// Whether two SQLite files hold the same, page layout aside: `user_version`, `application_id`,
    /// the schema, and every row of every table (an R-tree through its module, its shadow tables
    /// left out; `events` with its rowid, the feature id), each table's rows compared as a multiset
    /// (values as SQLite compares them: 1 equals 1.0, text never equals a BLOB). True for a patched
    /// file and the same content written whole. SQLite compares the rows of the two files attached
    /// side by side: reading them into GRDB's rows, compiled unoptimised in the tests' builds, was
    /// about 5 s of a quick loop's CPU.
    static func sameSQLiteContent(_ a: URL, _ b: URL) throws -> Bool {
        let queue = try DatabaseQueue(path: a.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try queue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [b.path])
            defer { try? db.execute(sql: "DETACH DATABASE other") }
            for pragma in ["user_version", "application_id"] {
                guard try Int.fetchOne(db, sql: "PRAGMA main.\(pragma)") == Int.fetchOne(db, sql: "PRAGMA other.\(pragma)") else { return false }
            }
            func schema(_ name: String) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM \(name).sqlite_master ORDER BY name")
            }
            guard try schema("main") == schema("other") else { return false }
            let tables = try String.fetchAll(db, sql: """
                SELECT t.name FROM main.sqlite_master t WHERE t.type = 'table' AND t.name NOT LIKE 'sqlite_%'
                  AND NOT EXISTS (SELECT 1 FROM main.sqlite_master v WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%'
                                  AND t.name IN (v.name || '_node', v.name || '_rowid', v.name || '_parent'))
                """)
            for table in tables {
                let columns = try db.columns(in: table, in: "main").count + (table == "events" ? 1 : 0)
                let groups = (1...columns).map(String.init).joined(separator: ", ")
                func counted(_ schema: String) -> String {
                    "SELECT \(table == "events" ? "rowid, " : "")*, count(*) FROM \(schema).\(table) GROUP BY \(groups)"
                }
                let differs = try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (\(counted("main")) EXCEPT \(counted("other")))
                        OR EXISTS (\(counted("other")) EXCEPT \(counted("main")))
                    """) ?? true
                if differs { return false }
            }
            return true
        }
    }

    /// The tiles of an MBTiles file: "z/x/row" → blob.
    static func mbtiles(_ url: URL) throws -> [String: Data] {
        let queue = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try queue.read { db in
            var tiles: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles") {
                tiles["\(row[0] as Int)/\(row[1] as Int)/\(row[2] as Int)"] = row[3]
            }
            return tiles
        }
    }
}

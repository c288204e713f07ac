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
    /// versions sat beside a bundle, not on its content (DeltaTests checks them).
    static func differences(_ a: URL, _ b: URL) throws -> [String] {
        let left = try withoutDeltas(files(a)), right = try withoutDeltas(files(b))
        return Set(left.keys).union(right.keys).sorted().filter { left[$0] != right[$0] }
    }

    private static func withoutDeltas(_ files: [String: Data]) throws -> [String: Data] {
        var kept = files.filter { !$0.key.hasPrefix("deltas/") }
        if let data = kept["manifest.json"], var manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
            manifest["deltas"] = nil
            manifest["files"] = (manifest["files"] as? [[String: Any]])?.filter { !(($0["path"] as? String) ?? "").hasPrefix("deltas/") }
            kept["manifest.json"] = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
        }
        return kept
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

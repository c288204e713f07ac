import Foundation
import TestSupport

/// The Python witnesses of the client tests.
enum BundleWitness {
    /// `bundle_compare.py`: an app's bundle beside the export's own version directory.
    struct Comparison: Decodable, CustomStringConvertible {
        let tiles: Int, metadata: Int, rows: Int, rtree: Int, info: Int, details: Int
        let tiles_count: Int, rows_count: Int, details_count: Int
        /// The copy's files (other than the two SQLite files) whose bytes differ from the export's.
        let differing: [String]
        /// The export's files the copy does not have.
        let absent: [String]

        /// Tiles, rows, R-tree entries, metadata, info and details rows that differ, and files that differ.
        var mismatches: Int { tiles + metadata + rows + rtree + info + details + differing.count }

        var description: String {
            "tiles \(tiles)/\(tiles_count), rows \(rows)/\(rows_count), details \(details)/\(details_count), rtree \(rtree), metadata \(metadata), info \(info), differing \(differing), absent \(absent)"
        }
    }

    static func compare(_ copy: URL, _ export: URL) async throws -> Comparison {
        try JSONDecoder().decode(Comparison.self, from: await WitnessScript.run("bundle_compare.py", [copy.path, export.path]))
    }

    /// The files of an export's bundle that a client with the `.app` selection leaves on the server.
    static func webOnly(_ export: URL) throws -> [String] {
        try TestPublication.files(of: export).filter {
            !$0.hasPrefix("deltas/") && ($0.hasPrefix("geojson/") || $0.hasPrefix("details/") || ["quakes.pmtiles", "recent.geojson", "preview.html"].contains($0))
        }
    }
}

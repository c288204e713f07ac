import Foundation
import QuakeCatalog
import TestSupport

/// A bundle as the witness `Tests/Witness/read_bundle.py` reads it.
struct BundleReport: Decodable, Sendable {
    let mbtiles: MBTiles
    let pmtiles: PMTiles

    /// Reads the bundle in `directory` with the witness.
    static func read(_ directory: URL) async throws -> BundleReport {
        try JSONDecoder().decode(BundleReport.self, from: await WitnessScript.run("read_bundle.py", [directory.path]))
    }

    struct MBTiles: Decodable, Sendable {
        let metadata: [String: String]
        let application_id: Int
        let tiles: [Tile]
    }

    struct Tile: Decodable, Sendable {
        let z: Int
        let x: Int
        let y: Int
        let tms_row: Int
        let sha256: String
        let bytes: Int
        let layers: [String: DecodedLayer]
    }

    struct PMTiles: Decodable, Sendable {
        let header: [String: JSON]
        let metadata: JSON
        let tiles: [PMTile]
        let get_mismatches: Int
    }

    struct PMTile: Decodable, Hashable, Sendable {
        let z: Int
        let x: Int
        let y: Int
        let sha256: String
    }
}

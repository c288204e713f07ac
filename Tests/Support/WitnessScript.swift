import Foundation
import QuakeCatalog

/// The Python witnesses in `Tests/Witness/`: independent readers of what quake-bake writes
/// (third-party packages only: `mapbox-vector-tile`, `pmtiles`, `mapli`, Pillow, `sqlite3`), each printing one JSON document.
/// They run in the venv `Scripts/setup` makes (`.build/witness-venv`, pinned versions).
///
/// ```swift
/// let layers = try JSONDecoder().decode([String: DecodedLayer].self,
///                                       from: await WitnessScript.run("tiles_witness.py", ["decode", tile.path]))
/// ```
public enum WitnessScript {
    /// `Tests/Witness`.
    public static let directory = TestData.projectRoot.appendingPathComponent("Tests/Witness")

    /// The witness venv's interpreter.
    public static let python = TestData.projectRoot.appendingPathComponent(".build/witness-venv/bin/python")

    /// Runs `<venv>/bin/python Tests/Witness/<script> arguments…` and returns its standard output;
    /// throws, with its standard error, when it fails or when the venv is missing.
    public static func run(_ script: String, _ arguments: [String]) async throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ChildProcess.Failure(description: "no witness venv at \(python.path): run Scripts/setup")
        }
        let outcome = try await ChildProcess.run(python.path, [directory.appendingPathComponent(script).path] + arguments).checked()
        return Data(outcome.standardOutput.utf8)
    }
}

/// One layer of a vector tile as the witnesses decode it (positions in tile units, y pointing down).
public struct DecodedLayer: Decodable, Sendable {
    public let version: Int
    public let extent: Int
    public let features: [DecodedFeature]
}

/// One feature of a decoded layer.
public struct DecodedFeature: Decodable, Sendable {
    public let id: UInt64?
    /// The geometry type (`Point`, or `MultiPoint` in the heat layer).
    public let type: String
    /// The (first) point.
    public let x: Int
    public let y: Int
    /// Every point: one for a `Point`, all of a `MultiPoint` (`read_bundle.py` lists each
    /// point of a `MultiPoint` as a feature of its own, and gives none).
    public let points: [[Int]]
    public let properties: [String: JSON]

    private enum CodingKeys: String, CodingKey { case id, type, x, y, points, properties }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(UInt64.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        x = try container.decode(Int.self, forKey: .x)
        y = try container.decode(Int.self, forKey: .y)
        points = try container.decodeIfPresent([[Int]].self, forKey: .points) ?? [[x, y]]
        properties = try container.decode([String: JSON].self, forKey: .properties)
    }
}

import Foundation
import QuakeCatalog

/// The Python witnesses in `Tests/Witness/`: independent readers of what quake-bake writes
/// (third-party packages only: `mapbox-vector-tile`, `pmtiles`, `mapli`, `sqlite3`), each printing one JSON document.
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
    /// The geometry type (`Point`).
    public let type: String
    public let x: Int
    public let y: Int
    public let properties: [String: JSON]
}

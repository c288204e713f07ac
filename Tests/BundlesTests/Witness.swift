import Foundation
import TestSupport

/// Runs the Python witness scripts in `witness/` (third-party readers only) and decodes their JSON.
enum Witness {
    static let directory = TestData.projectRoot.appendingPathComponent("Tests/BundlesTests/witness")

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `python3 witness/<script> arguments…`; returns standard output.
    static func run(_ script: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory.appendingPathComponent(script).path] + arguments
        let scratch = TemporaryDirectory("witness")
        let out = scratch.path("out"), err = scratch.path("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(script) failed (\(process.terminationStatus)): \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        }
        return try Data(contentsOf: out)
    }

    /// The bundle as `read_bundle.py` sees it.
    static func readBundle(_ directory: URL) throws -> BundleReport {
        try JSONDecoder().decode(BundleReport.self, from: run("read_bundle.py", [directory.path]))
    }

    /// Runs a command-line tool (e.g. `ogrinfo`); returns its exit status and output.
    static func tool(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let scratch = TemporaryDirectory("tool")
        let out = scratch.path("out")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
    }
}

/// What `read_bundle.py` prints.
struct BundleReport: Decodable, Sendable {
    let mbtiles: MBTiles
    let pmtiles: PMTiles

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
        let layers: [String: Layer]
    }

    struct Layer: Decodable, Sendable {
        let version: Int
        let extent: Int
        let features: [Feature]
    }

    struct Feature: Decodable, Sendable {
        let id: UInt64?
        let x: Int
        let y: Int
        let properties: [String: JSONValue]
    }

    struct PMTiles: Decodable, Sendable {
        let header: [String: JSONValue]
        let metadata: JSONValue
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

/// Any JSON value, as the witness reports properties.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let d = try? container.decode(Double.self) { self = .number(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    var number: Double? { if case .number(let d) = self { return d }; return nil }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    subscript(key: String) -> JSONValue? { if case .object(let o) = self { return o[key] }; return nil }
}

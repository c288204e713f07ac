import ArgumentParser
import Foundation
import QuakeCatalog
import QuakeCommon

/// `bench-index parsers [FILE]`: why `JSONParser` is written by hand (issue 17.8). Reads one
/// real GeoJSON page into events three ways and prints events/s for each: quake-bake's reader
/// (`GeoJSONReader`, every ComCat property, rejects with reasons), Foundation's
/// `JSONSerialization` with the same fields picked from the tree, and `JSONDecoder` into
/// `Codable` structs of those fields. The fastest of --runs.
struct Parsers: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "parsers", abstract: "Compare the GeoJSON reader with Foundation's.")

    @Argument(help: "A GeoJSON FeatureCollection, gzip or plain (default: the week of USGS events in data/).")
    var file = "data/usgs/feed-all_week-2018-06.geojson.gz"

    @Option(help: "Runs of each; the fastest is printed.") var runs = 5

    func run() throws {
        let data = InputFile.body(of: try InputFile.bytes(of: URL(fileURLWithPath: file))).text
        print("\(file): \(Format.bytes(data.count)), the fastest of \(runs) runs")
        print("| reader | events | events/s |")
        print("|---|---:|---:|")
        for (name, read) in [("quake-bake GeoJSONReader", Self.ours), ("Foundation JSONSerialization", Self.serialization),
                             ("Foundation JSONDecoder", Self.decoder)] as [(String, (Data) throws -> Int)] {
            var best = Double.infinity, events = 0
            for _ in 0..<runs {
                let started = Date()
                events = try read(data)
                best = min(best, Date().timeIntervalSince(started))
            }
            print("| \(name) | \(Format.count(events)) | \(Format.count(Int(Double(events) / best))) |")
        }
    }

    static func ours(_ data: Data) -> Int { GeoJSONReader.read(data, source: "bench").events.count }

    /// The fields a store row needs, picked from Foundation's tree.
    static func serialization(_ data: Data) throws -> Int {
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        var events: [(String, Double, Double, Double?, Int64, Int64, String?)] = []
        for case let feature as [String: Any] in root?["features"] as? [Any] ?? [] {
            guard let id = feature["id"] as? String, let geometry = feature["geometry"] as? [String: Any],
                  let coordinates = geometry["coordinates"] as? [Double], coordinates.count >= 2,
                  let properties = feature["properties"] as? [String: Any],
                  let time = (properties["time"] as? NSNumber)?.int64Value, let updated = (properties["updated"] as? NSNumber)?.int64Value
            else { continue }
            events.append((id, coordinates[0], coordinates[1], (properties["mag"] as? NSNumber)?.doubleValue, time, updated, properties["place"] as? String))
        }
        return events.count
    }

    struct Collection: Decodable { let features: [Feature] }
    struct Feature: Decodable {
        let id: String
        let geometry: Geometry
        let properties: Properties
    }
    struct Geometry: Decodable { let coordinates: [Double] }
    struct Properties: Decodable {
        let mag: Double?
        let place: String?
        let time: Int64
        let updated: Int64
        let ids: String?
        let status: String?
        let type: String?
    }

    static func decoder(_ data: Data) throws -> Int {
        try JSONDecoder().decode(Collection.self, from: data).features.count
    }
}

import ArgumentParser
import BenchSupport
import QuakeSynthetic
import Foundation
import Logging
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeStore

/// `bench-export child-export STORE OUT MAXZOOM`: exports and prints `ExportFigures` as JSON.
struct ChildExport: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child-export", abstract: "Export once (a child of measure).",
                                                    shouldDisplay: false)

    @Argument(help: "The store.") var store: String
    @Argument(help: "The output directory.") var out: String
    @Argument(help: "The max zoom.") var maxZoom: Int
    @Flag(help: "Log every phase (debug).") var verbose = false

    func run() throws {
        LogSetup.bootstrap(format: .text, level: verbose ? .debug : .warning)
        let load = ProcessFigures.loadAverage()
        var options = ExportOptions()
        options.thinning.maxZoom = maxZoom
        let summary = try Exporter.export(store: URL(fileURLWithPath: store), out: URL(fileURLWithPath: out),
                                          options: options, progress: Progress.silent, logger: Logger(label: "export"))
        let pmtiles = summary.directory.appendingPathComponent("quakes.pmtiles").path
        let figures = ExportFigures(events: summary.events, seconds: summary.seconds, cpuSeconds: ProcessFigures.cpuSeconds(),
                                    load: load, tiles: summary.tiles, encoded: summary.encodedTiles, reused: summary.reusedTiles,
                                    bytes: summary.bytes,
                                    pmtilesBytes: (try? FileManager.default.attributesOfItem(atPath: pmtiles)[.size] as? Int) ?? 0,
                                    largestTile: summary.zooms.map(\.largestTileBytes).max() ?? 0,
                                    warnings: summary.warnings.count, peakResidentBytes: ProcessFigures.peakResidentBytes())
        print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    }
}

/// `bench-export child-index STORE SOURCE`: indexes SOURCE (a directory of gzip GeoJSON pages, or
/// one ComCat file) and prints `IndexFigures` as JSON.
struct ChildIndex: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child-index", abstract: "Index once (a child of measure).",
                                                    shouldDisplay: false)

    @Argument(help: "The store.") var store: String
    @Argument(help: "The directory of gzip GeoJSON pages, or one ComCat file.") var source: String

    func run() throws {
        LogSetup.bootstrap(format: .text, level: .warning)
        let url = URL(fileURLWithPath: source)
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        let files = isDirectory.boolValue
            ? try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.hasSuffix(".geojson.gz") }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            : [url]
        let (seconds, _) = try ProcessFigures.timed { try Indexer.index(files.map { IndexSource.file($0) }, store: URL(fileURLWithPath: store)) }
        let figures = IndexFigures(seconds: seconds, peakResidentBytes: ProcessFigures.peakResidentBytes())
        print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    }
}

/// What one child index measured.
struct IndexFigures: Codable {
    var seconds: Double
    var peakResidentBytes: Int
}

/// Starting the children and reading their answers.
enum Children {
    /// Runs this program with `arguments`; returns the last line it printed (libraries may print above it).
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw QuakeBakeError("bench-export \(arguments.first ?? "") failed (\(process.terminationStatus))") }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
    }

    /// Indexes `source` (a directory of pages, or one ComCat file) into `store` in a child.
    static func index(store: URL, source: URL) throws -> IndexFigures {
        let answer = try run(["child-index", store.path, source.path])
        guard let figures = try? JSONDecoder().decode(IndexFigures.self, from: Data(answer.utf8)) else {
            throw QuakeBakeError("bench-export child-index answered `\(answer)`")
        }
        return figures
    }

    static func export(store: URL, out: URL, maxZoom: Int) throws -> ExportFigures {
        try JSONDecoder().decode(ExportFigures.self, from: Data(run(["child-export", store.path, out.path, String(maxZoom)]).utf8))
    }

    /// Indexes `events` into a fresh store under `directory`; returns the store and what the index took.
    static func buildStore(_ events: some Sequence<QuakeEvent>, in directory: URL) throws -> (URL, IndexFigures) {
        let pages = directory.appendingPathComponent("pages")
        _ = try FeatureCollectionPages.write(events, pageSize: 20_000, to: pages)
        let store = directory.appendingPathComponent("store/quakes.sqlite")
        let figures = try index(store: store, source: pages)
        try? FileManager.default.removeItem(at: pages)
        return (store, figures)
    }
}

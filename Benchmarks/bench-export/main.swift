// bench-export: figures for the `## export` section of BENCHMARKS.md.
//
//   bench-export [--data DIR] [--work DIR] [--synthetic N] [--zooms 10,12] [--no-real] [--keep]
//
// (a) the real 440,728 events of DIR/usgs/csv/all_day-union-2022-2026.csv.gz, as
//     FeatureCollection pages of 20,000, indexed into a fresh store (QuakeStore's
//     Indexer), then exported at each max zoom;
// (b) 1,000 of those events changed (newer `updated`, magnitude, position), indexed
//     into the same store, then exported again at max zoom 10 over the z10 bundle
//     (incremental: unchanged tiles are reused);
// (c) N (default 1,000,000) synthetic events (SyntheticCatalog, seed 42), the same way;
// (d) the first 100,000 synthetic events at max zoom 5 and 12, the sizes tippecanoe
//     was timed on (see BENCHMARKS.md).
// Every index and export runs in a child process, so the peak RSS is the export's own.
import BenchSupport
import Foundation
import Logging
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeStore

/// What one child export measured.
struct ExportFigures: Codable {
    var events: Int
    var seconds: Double
    var tiles: Int
    var encoded: Int
    var reused: Int
    var bytes: Int
    var pmtilesBytes: Int
    var largestTile: Int
    var warnings: Int
    var peakResidentBytes: Int
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// Child: `--child-export STORE OUT MAXZOOM` exports and prints `ExportFigures` as JSON.
func childExport() throws {
    LogSetup.bootstrap(format: .text, level: arguments.contains("--verbose") ? .debug : .warning)
    var options = ExportOptions()
    options.thinning.maxZoom = Int(arguments[3])!
    let summary = try Exporter.export(store: URL(fileURLWithPath: arguments[1]), out: URL(fileURLWithPath: arguments[2]),
                                      options: options, progress: Progress.silent, logger: Logger(label: "export"))
    let figures = ExportFigures(events: summary.events, seconds: summary.seconds, tiles: summary.tiles, encoded: summary.encodedTiles,
                                reused: summary.reusedTiles, bytes: summary.bytes,
                                pmtilesBytes: (try? FileManager.default.attributesOfItem(atPath: summary.directory.appendingPathComponent("quakes.pmtiles").path)[.size] as? Int) ?? 0,
                                largestTile: summary.zooms.map(\.largestTileBytes).max() ?? 0,
                                warnings: summary.warnings.count, peakResidentBytes: ProcessFigures.peakResidentBytes())
    print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
}

/// Child: `--child-index STORE PAGES-DIR` indexes the pages and prints the seconds it took.
func childIndex() throws {
    LogSetup.bootstrap(format: .text, level: .warning)
    let pages = try FileManager.default.contentsOfDirectory(at: URL(fileURLWithPath: arguments[2]), includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".geojson.gz") }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    let (seconds, _) = try ProcessFigures.timed { try Indexer.index(pages.map(IndexSource.file), store: URL(fileURLWithPath: arguments[1])) }
    print(seconds)
}

func runChild(_ childArguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    process.arguments = childArguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw QuakeBakeError("bench-export \(childArguments.first ?? "") failed (\(process.terminationStatus))") }
    // The child's answer is its last line (libraries may print above it).
    return String(decoding: output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
}

func index(store: URL, pages: URL) throws -> Double {
    Double(try runChild(["--child-index", store.path, pages.path]))!
}

func export(store: URL, out: URL, maxZoom: Int) throws -> ExportFigures {
    try JSONDecoder().decode(ExportFigures.self, from: Data(runChild(["--child-export", store.path, out.path, String(maxZoom)]).utf8))
}

func report(_ label: String, maxZoom: Int, indexSeconds: Double?, _ f: ExportFigures) {
    let index = indexSeconds.map { String(format: "%.1f s", $0) } ?? "–"
    let total = indexSeconds.map { String(format: "%.1f s", $0 + f.seconds) } ?? "–"
    print("| \(label) | \(Format.count(f.events)) | \(maxZoom) | \(index) | \(String(format: "%.2f s", f.seconds)) | \(total) "
          + "| \(Format.count(f.tiles)) | \(Format.count(Int(Double(f.tiles) / f.seconds))) | \(Format.count(f.encoded)) / \(Format.count(f.reused)) "
          + "| \(Format.bytes(f.peakResidentBytes)) | \(Format.bytes(f.bytes)) | \(Format.bytes(f.pmtilesBytes)) | \(Format.bytes(f.largestTile)) | \(f.warnings) |")
}

/// Indexes `events` into a fresh store under `directory`; returns the store and the index time.
func buildStore(_ events: some Sequence<QuakeEvent>, in directory: URL) throws -> (URL, Double) {
    let pages = directory.appendingPathComponent("pages")
    _ = try FeatureCollectionPages.write(events, pageSize: 20_000, to: pages)
    let store = directory.appendingPathComponent("store/quakes.sqlite")
    let seconds = try index(store: store, pages: pages)
    try? FileManager.default.removeItem(at: pages)
    return (store, seconds)
}

func main() throws {
    if arguments.first == "--child-export" { return try childExport() }
    if arguments.first == "--child-index" { return try childIndex() }
    let data = URL(fileURLWithPath: option("--data") ?? "../shared/data")
    let work = URL(fileURLWithPath: option("--work") ?? NSTemporaryDirectory() + "quake-bake-bench-export")
    let syntheticCount = Int(option("--synthetic") ?? "") ?? 1_000_000
    let zooms = (option("--zooms") ?? "10,12").split(separator: ",").compactMap { Int($0) }
    try? FileManager.default.removeItem(at: work)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { if !arguments.contains("--keep") { try? FileManager.default.removeItem(at: work) } }

    print("bench-export on \(ProcessInfo.processInfo.activeProcessorCount) cores; work directory \(work.path)")
    print("| run | events | max zoom | index | export | index + export | tiles | tiles/s | encoded / reused | peak RSS (export) | bundle | of which PMTiles | largest tile | size-guard cuts |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    let realFile = data.appendingPathComponent("usgs/csv/all_day-union-2022-2026.csv.gz")
    if arguments.contains("--no-real") {
        print("| (a) real | skipped (--no-real) | | | | | | | | | | | | |")
    } else if FileManager.default.fileExists(atPath: realFile.path) {
        let page = CatalogFile.read(realFile)
        if let problem = page.problem { throw QuakeBakeError(problem) }
        let directory = work.appendingPathComponent("real")
        let (store, indexSeconds) = try buildStore(page.events, in: directory)
        for zoom in zooms {
            report("(a) real", maxZoom: zoom, indexSeconds: indexSeconds,
                   try export(store: store, out: directory.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom))
        }
        // (b) 1,000 changed versions of stored events, then an incremental export over the z10 bundle.
        let step = page.events.count / 1000
        let changed = stride(from: 0, to: page.events.count, by: step).prefix(1000).map { i -> QuakeEvent in
            var e = page.events[i]
            e.updated += 60_000
            e.mag = (e.mag ?? 1) + 0.3
            e.latitude = min(90, (e.latitude ?? 0) + 0.01)
            e.status = "reviewed"
            return e
        }
        let changes = directory.appendingPathComponent("changes")
        _ = try FeatureCollectionPages.write(changed, pageSize: 20_000, to: changes)
        let changeSeconds = try index(store: store, pages: changes)
        report("(b) real, 1,000 changed, incremental", maxZoom: 10, indexSeconds: changeSeconds,
               try export(store: store, out: directory.appendingPathComponent("bundles-z10"), maxZoom: 10))
    } else {
        print("| (a), (b) real | \(realFile.path) not found (../shared/data is absent): real-data runs skipped | | | | | | | | | | | | |")
    }

    let synthetic = work.appendingPathComponent("synthetic")
    let (store, indexSeconds) = try buildStore(SyntheticCatalog(seed: 42).prefix(syntheticCount), in: synthetic)
    for zoom in zooms {
        report("(c) synthetic", maxZoom: zoom, indexSeconds: indexSeconds,
               try export(store: store, out: synthetic.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom))
    }
    if !arguments.contains("--keep") { try? FileManager.default.removeItem(at: synthetic) }

    let small = work.appendingPathComponent("synthetic-100k")
    let (smallStore, smallIndexSeconds) = try buildStore(SyntheticCatalog(seed: 42).prefix(100_000), in: small)
    for zoom in [5, 12] {
        report("(d) synthetic", maxZoom: zoom, indexSeconds: smallIndexSeconds,
               try export(store: smallStore, out: small.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom))
    }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("bench-export: \(error)\n".utf8))
    exit(1)
}

import ArgumentParser
import BenchSupport
import Foundation
import QuakeCommon
import QuakeStore

/// `bench-index child STORE PAGES-DIR [--archive] [--verbose]`: indexes the pages (`*.geojson.gz`,
/// `*.geojson`, `*.csv.gz` or `*.csv`, in name order) into STORE and prints `IndexFigures` as
/// JSON. With `--archive` the pages are indexed as fetch's archive is (see `archivePage`);
/// without, as `index --from` files.
/// With `--verbose` the indexer logs where the time went (reading and writing CPU, each index,
/// `event_ids`, the R-tree).
struct Child: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child", abstract: "Index once (a child of measure).",
                                                    shouldDisplay: false)

    @Argument(help: "The store (created when absent, updated when present).") var store: String
    @Argument(help: "The directory of pages.") var pages: String
    @Flag(help: "Index the pages as fetch's archive is indexed (each page's SHA-256 and event count known).") var archive = false
    @Flag(help: "Log the indexer's debug messages (where the time went).") var verbose = false

    func run() throws {
        let store = URL(fileURLWithPath: store)
        let files = try FileManager.default.contentsOfDirectory(at: URL(fileURLWithPath: pages), includingPropertiesForKeys: nil)
            .filter { name in [".geojson.gz", ".geojson", ".csv.gz", ".csv"].contains { name.lastPathComponent.hasSuffix($0) } }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        LogSetup.bootstrap(format: .text, level: verbose ? .debug : .warning)
        let sources = try archive ? files.enumerated().map { try Self.archivePage($0.offset + 1, $0.element) } : files.map { IndexSource.file($0) }
        let load = ProcessFigures.loadAverage()
        let (seconds, summary) = try ProcessFigures.timed { try Indexer.index(sources, store: store) }
        let cpu = ProcessFigures.cpuSeconds()
        let peak = ProcessFigures.peakResidentBytes()
        let check = try IndexFigures.run("spatialite", [store.path, "SELECT rtreecheck('idx_events_geom'); SELECT count(*) FROM events;"])
            .split(separator: "\n").map(String.init)
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        let figures = IndexFigures(events: summary.events, seconds: seconds, cpuSeconds: cpu, load: load, peakResidentBytes: peak,
                                   storeBytes: size, rtreeCheck: check.first ?? "", rows: Int(check.last ?? "") ?? 0)
        print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    }

    /// Page `sequence` as fetch's archive lists it: with what fetch records as a page arrives (the
    /// SHA-256 of its body, the event count of its metadata), found here before the timing starts,
    /// so that the indexer, as after a fetch, does not hash the page again.
    private static func archivePage(_ sequence: Int, _ file: URL) throws -> IndexSource {
        let text = InputFile.body(of: try Data(contentsOf: file)).text
        let head = String(decoding: text.prefix(4096), as: UTF8.self)
        let count = head.firstMatch(of: /"count":(\d+)/).flatMap { Int($0.1) } ?? 0
        return IndexSource.archivePage(sequence: Int64(sequence), file: file, sha256: SHA256.hex(text),
                                       requestURL: "bench page \(sequence)", eventCount: count)
    }
}

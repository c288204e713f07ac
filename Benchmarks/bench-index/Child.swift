import ArgumentParser
import BenchSupport
import Foundation
import QuakeCommon
import QuakeStore

/// `bench-index child STORE PAGES-DIR [--verbose]`: indexes the pages (`*.geojson.gz` or `*.geojson`, in name
/// order) into STORE and prints `IndexFigures` as JSON. With `--verbose` the indexer logs where
/// the time went (reading and writing CPU, each index, `event_ids`, the R-tree).
struct Child: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "child", abstract: "Index once (a child of measure).",
                                                    shouldDisplay: false)

    @Argument(help: "The store (created when absent, updated when present).") var store: String
    @Argument(help: "The directory of pages.") var pages: String
    @Flag(help: "Log the indexer's debug messages (where the time went).") var verbose = false

    func run() throws {
        let store = URL(fileURLWithPath: store)
        let files = try FileManager.default.contentsOfDirectory(at: URL(fileURLWithPath: pages), includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".geojson.gz") || $0.lastPathComponent.hasSuffix(".geojson") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        LogSetup.bootstrap(format: .text, level: verbose ? .debug : .warning)
        let load = ProcessFigures.loadAverage()
        let (seconds, summary) = try ProcessFigures.timed { try Indexer.index(files.map { IndexSource.file($0) }, store: store) }
        let cpu = ProcessFigures.cpuSeconds()
        let peak = ProcessFigures.peakResidentBytes()
        let check = try IndexFigures.run("spatialite", [store.path, "SELECT rtreecheck('idx_events_geom'); SELECT count(*) FROM events;"])
            .split(separator: "\n").map(String.init)
        let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
        let figures = IndexFigures(events: summary.events, seconds: seconds, cpuSeconds: cpu, load: load, peakResidentBytes: peak,
                                   storeBytes: size, rtreeCheck: check.first ?? "", rows: Int(check.last ?? "") ?? 0)
        print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    }
}

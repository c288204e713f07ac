// bench-index: the figures of the `## index` section of BENCHMARKS.md.
//
//   bench-index [--data DIR] [--work DIR] [--synthetic N] [--runs N] [--no-ogr2ogr] [--keep]
//
// (a) the real events of DIR/usgs/csv/all_day-union-2022-2026.csv.gz, written as
//     gzip FeatureCollection pages of 20,000 and indexed into a fresh store;
// (b) N (default 1,000,000) synthetic events (SyntheticCatalog, seed 42), the same way;
// (c) ogr2ogr -f SQLite -dsco SPATIALITE=YES on the same events as (a) and (b), each as
//     one GeoJSON file, for the ratio;
// (d) 1,000 changed events (newer versions of events of (a)) indexed into the store of (a).
// Each index run is a child process, so that its peak RSS is its own; each measurement is
// the fastest of --runs (default 3), as other work on a shared machine only ever slows a
// run down. Times are wall clock; CPU is user + system over all threads (parsing and
// writing overlap on two cores).
import BenchSupport
import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeStore

/// What a child process measured.
struct Figures: Codable {
    var events: Int
    var seconds: Double
    var cpuSeconds: Double
    var peakResidentBytes: Int
    var storeBytes: Int
    var rtreeCheck: String
    var rows: Int
}

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// Child mode: `bench-index --child STORE PAGES-DIR [--verbose]` indexes the pages and prints `Figures` as JSON.
func child() throws {
    let store = URL(fileURLWithPath: arguments[1])
    let directory = URL(fileURLWithPath: arguments[2])
    let pages = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        .filter { $0.lastPathComponent.hasSuffix(".geojson.gz") }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    LogSetup.bootstrap(format: .text, level: arguments.contains("--verbose") ? .debug : .warning)
    let (seconds, summary) = try ProcessFigures.timed { try Indexer.index(pages.map(IndexSource.file), store: store) }
    let cpu = ProcessFigures.cpuSeconds()
    let peak = ProcessFigures.peakResidentBytes()
    let check = try run("spatialite", [store.path, "SELECT rtreecheck('idx_events_geom'); SELECT count(*) FROM events;"])
        .split(separator: "\n").map(String.init)
    let size = (try? FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) ?? 0
    let figures = Figures(events: summary.events, seconds: seconds, cpuSeconds: cpu, peakResidentBytes: peak,
                          storeBytes: size, rtreeCheck: check.first ?? "", rows: Int(check.last ?? "") ?? 0)
    print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
}

/// Runs `command` (on PATH) and returns its standard output; throws when it fails.
@discardableResult
func run(_ command: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command.hasPrefix("/") ? command : "/usr/bin/env")
    process.arguments = command.hasPrefix("/") ? arguments : [command] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw QuakeBakeError("\(command) \(arguments.prefix(3).joined(separator: " ")) … failed with status \(process.terminationStatus)")
    }
    return String(decoding: output, as: UTF8.self)
}

let runs = max(1, Int(option("--runs") ?? "") ?? 3)

/// The fastest of `runs` index runs of `pages` into `store`: a fresh store each time, or a
/// copy of `template` when given.
func measure(store: URL, pages: URL, template: URL? = nil) throws -> Figures {
    var best: Figures?
    for _ in 0..<runs {
        try? FileManager.default.removeItem(at: store)
        if let template { try FileManager.default.copyItem(at: template, to: store) }
        let output = try run(Bundle.main.executablePath ?? CommandLine.arguments[0], ["--child", store.path, pages.path])
        let figures = try JSONDecoder().decode(Figures.self, from: Data(output.utf8))
        if best.map({ figures.seconds < $0.seconds }) ?? true { best = figures }
    }
    return best!
}

/// The fastest of `runs` ogr2ogr runs on `geojson`: seconds and output size.
func ogr2ogr(_ geojson: URL, into output: URL) throws -> (seconds: Double, bytes: Int) {
    var best = Double.infinity
    for _ in 0..<runs {
        try? FileManager.default.removeItem(at: output)
        let (seconds, _) = try ProcessFigures.timed {
            try run("ogr2ogr", ["-f", "SQLite", "-dsco", "SPATIALITE=YES", output.path, geojson.path])
        }
        best = min(best, seconds)
    }
    return (best, (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0)
}

func row(_ label: String, events: Int, seconds: Double, cpu: Double?, rss: Int?, size: Int, check: String) {
    let cells = [label, Format.count(events), String(format: "%.2f s", seconds), cpu.map { String(format: "%.1f s", $0) } ?? "",
                 Format.count(Int(Double(events) / seconds)), rss.map(Format.bytes) ?? "", Format.bytes(size), check]
    print("| " + cells.joined(separator: " | ") + " |")
}

func report(_ label: String, _ f: Figures) {
    row(label, events: f.events, seconds: f.seconds, cpu: f.cpuSeconds, rss: f.peakResidentBytes, size: f.storeBytes,
        check: "rtreecheck \(f.rtreeCheck), \(Format.count(f.rows)) rows")
}

func main() throws {
    if arguments.first == "--child" { return try child() }
    let data = URL(fileURLWithPath: option("--data") ?? "../shared/data")
    let work = URL(fileURLWithPath: option("--work") ?? NSTemporaryDirectory() + "quake-bake-bench-index")
    let syntheticCount = Int(option("--synthetic") ?? "") ?? 1_000_000
    try? FileManager.default.removeItem(at: work)
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { if !arguments.contains("--keep") { try? FileManager.default.removeItem(at: work) } }

    print("bench-index: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage()) at the start, work directory \(work.path)")
    print("")
    print("| run | events | time | CPU | events/s | peak RSS | store | check |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")

    let realFile = data.appendingPathComponent("usgs/csv/all_day-union-2022-2026.csv.gz")
    var notes: [String] = []
    var real: (geojson: URL, store: URL, events: Int, sample: [QuakeEvent], build: Figures)?
    if FileManager.default.fileExists(atPath: realFile.path) {
        let page = CatalogFile.read(realFile)
        if let problem = page.problem { throw QuakeBakeError(problem) }
        notes.append("(a) \(realFile.lastPathComponent): \(Format.count(page.events.count + page.rejects.count)) rows, \(Format.count(page.rejects.count)) rejected by the reader (\(page.rejects.first?.reason ?? "none")), \(Format.count(page.events.count)) events in \((page.events.count + 19_999) / 20_000) pages.")
        let pages = work.appendingPathComponent("real-pages")
        _ = try FeatureCollectionPages.write(page.events, pageSize: 20_000, to: pages)
        let geojson = work.appendingPathComponent("real.geojson")
        try FeatureCollectionPages.writeSingleFile(page.events, to: geojson)
        let store = work.appendingPathComponent("real.sqlite")
        let build = try measure(store: store, pages: pages)
        report("(a) real, full build", build)
        let sample = stride(from: 0, to: page.events.count, by: page.events.count / 1000).prefix(1000).map { page.events[$0] }
        real = (geojson, store, page.events.count, sample, build)
    } else {
        print("| (a) real | \(realFile.path) is absent: real-data runs (a), (d) and ogr2ogr on (a) skipped | | | | | | |")
    }

    let synthetic = work.appendingPathComponent("synthetic-pages")
    _ = try FeatureCollectionPages.write(SyntheticCatalog(seed: 42).prefix(syntheticCount), pageSize: 20_000, to: synthetic)
    let syntheticBuild = try measure(store: work.appendingPathComponent("synthetic.sqlite"), pages: synthetic)
    report("(b) synthetic, full build", syntheticBuild)
    try? FileManager.default.removeItem(at: synthetic)

    if !arguments.contains("--no-ogr2ogr") {
        var comparisons: [(label: String, events: Int, geojson: URL, ours: Figures)] = []
        if let real { comparisons.append(("(a)", real.events, real.geojson, real.build)) }
        let syntheticJSON = work.appendingPathComponent("synthetic.geojson")
        try FeatureCollectionPages.writeSingleFile(SyntheticCatalog(seed: 42).prefix(syntheticCount), to: syntheticJSON)
        comparisons.append(("(b)", syntheticCount, syntheticJSON, syntheticBuild))
        for comparison in comparisons {
            let (seconds, size) = try ogr2ogr(comparison.geojson, into: work.appendingPathComponent("ogr2ogr.sqlite"))
            row("(c) ogr2ogr, same events as \(comparison.label)", events: comparison.events, seconds: seconds, cpu: nil, rss: nil,
                size: size, check: "")
            let ours = Double(comparison.ours.events) / comparison.ours.seconds, theirs = Double(comparison.events) / seconds
            notes.append("\(comparison.label) against ogr2ogr: \(String(format: "%.1f", ours / theirs))× its events/s (\(Format.count(Int(ours))) against \(Format.count(Int(theirs)))).")
            try? FileManager.default.removeItem(at: comparison.geojson)
        }
    }

    if let real {
        // 1,000 newer versions of stored events: revised magnitude and location, now reviewed.
        let changed = real.sample.map { event -> QuakeEvent in
            var e = event
            e.updated += 60_000
            e.mag = (e.mag ?? 1) + 0.1
            e.latitude = min(90, (e.latitude ?? 0) + 0.01)
            e.status = "reviewed"
            return e
        }
        let changes = work.appendingPathComponent("changes")
        _ = try FeatureCollectionPages.write(changed, pageSize: 20_000, to: changes)
        let incremental = work.appendingPathComponent("incremental.sqlite")
        report("(d) 1,000 changed into (a)", try measure(store: incremental, pages: changes, template: real.store))
    }
    print("")
    print("Each figure is the fastest of \(runs) runs.")
    for note in notes { print(note) }
    print("Load average at the end: \(loadAverage()) (other work on the machine slows the runs that use both cores most).")
}

/// The 1-minute load average, from /proc.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("bench-index: \(error)\n".utf8))
    exit(1)
}

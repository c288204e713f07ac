import ArgumentParser
import BenchSupport
import QuakeSynthetic
import Foundation
import QuakeCatalog
import QuakeCommon

/// The benchmark itself (the default subcommand).
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "measure", abstract: "Index the benchmark inputs, run ogr2ogr on them; print the table.")

    @Option(help: ArgumentHelp("The shared data directory (holds usgs/csv/all_day-union-2022-2026.csv.gz).", valueName: "dir"))
    var data = "../shared/data"

    @Option(help: ArgumentHelp("Scratch directory, emptied first.", valueName: "dir"))
    var work = NSTemporaryDirectory() + "quake-bake-bench-index"

    @Option(help: "Synthetic events for run (b).")
    var synthetic = 1_000_000

    @Option(help: "Runs of each measurement; the fastest is reported.")
    var runs = 3

    @Flag(name: .customLong("no-ogr2ogr"), help: "Skip ogr2ogr (no ratio).")
    var noOgr2ogr = false

    @Flag(help: "Keep the work directory (pages, stores).")
    var keep = false

    /// The events/s the issue quotes for ogr2ogr on this machine.
    private static let quotedOgr2ogrRate = 10_000.0
    /// The speed target: a full build at this many times ogr2ogr's events/s.
    private static let target = 5.0

    func validate() throws {
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard synthetic >= 1000 else { throw ValidationError("--synthetic must be at least 1000") }
    }

    func run() throws {
        let work = URL(fileURLWithPath: work)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: work) } }

        print("bench-index: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(ProcessFigures.loadAverage()) at the start, machine reference \(ProcessFigures.machineReference()) (lower is faster; see BENCHMARKS.md), work directory \(work.path)")
        print("")
        var rows: [String] = []
        var notes: [String] = []

        let realFile = URL(fileURLWithPath: data).appendingPathComponent("usgs/csv/all_day-union-2022-2026.csv.gz")
        var real: (store: URL, sample: [QuakeEvent])?
        if FileManager.default.fileExists(atPath: realFile.path) {
            let page = CatalogFile.read(realFile)
            if let problem = page.problem { throw QuakeBakeError(problem) }
            notes.append("(a) \(realFile.lastPathComponent): \(Format.count(page.events.count + page.rejects.count)) rows, \(Format.count(page.rejects.count)) rejected by the reader (\(page.rejects.first?.reason ?? "none")), \(Format.count(page.events.count)) events in \((page.events.count + 19_999) / 20_000) pages.")
            let directory = work.appendingPathComponent("real")
            let store = try compare("(a)", "real", page.events, in: directory, rows: &rows, notes: &notes)
            // The CSV.gz file itself, as ComCat serves it (its 95 broken rows rejected): the other one-file format.
            let csv = directory.appendingPathComponent("csv")
            try FileManager.default.createDirectory(at: csv, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: csv.appendingPathComponent(realFile.lastPathComponent), withDestinationURL: realFile)
            let csvStore = directory.appendingPathComponent("csv.sqlite")
            rows.append(try fastest(runs) { try index(into: csvStore, pages: csv) }.row("(a) real, the CSV.gz file itself"))
            try? FileManager.default.removeItem(at: csvStore)
            let sample = stride(from: 0, to: page.events.count, by: page.events.count / 1000).prefix(1000).map { page.events[$0] }
            real = (store, sample)
        } else {
            rows.append("| (a) real | \(realFile.path) is absent: real-data runs (a), (d) and ogr2ogr on (a) skipped | | | | | | | |")
        }

        _ = try compare("(b)", "synthetic", SyntheticCatalog.ending(count: synthetic, seed: 42).prefix(synthetic), in: work.appendingPathComponent("synthetic"),
                        rows: &rows, notes: &notes)

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
            rows.append(try fastest(runs) { try index(into: incremental, pages: changes, template: real.store) }.row("(d) 1,000 changed into (a)"))
        }

        print(IndexFigures.header)
        for row in rows { print(row) }
        print("")
        print("Each figure is the fastest of \(runs) runs; quake-bake's and ogr2ogr's runs alternate. Load: the one-minute load average as each run began.")
        for note in notes { print(note) }
        print("Load average at the end: \(ProcessFigures.loadAverage()).")
    }

    /// Indexes `events` as pages into a fresh store and runs ogr2ogr on them as one file, alternately,
    /// `runs` times each; adds their rows and the ratio. Returns the store (of the last run).
    private func compare(_ label: String, _ name: String, _ events: some Sequence<QuakeEvent>, in directory: URL,
                         rows: inout [String], notes: inout [String]) throws -> URL {
        let pages = directory.appendingPathComponent("pages")
        _ = try FeatureCollectionPages.write(events, pageSize: 20_000, to: pages)
        // The same events as one GeoJSON file, for ogr2ogr and for quake-bake's `index --from` of one file.
        let single = directory.appendingPathComponent("single")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        let geojson = single.appendingPathComponent("\(name).geojson")
        try FeatureCollectionPages.writeSingleFile(events, to: geojson)
        let store = directory.appendingPathComponent("\(name).sqlite")
        let ogrOutput = directory.appendingPathComponent("ogr2ogr.sqlite")
        var ours: IndexFigures?, oursFetched: IndexFigures?, oursSingle: IndexFigures?
        var theirs: (seconds: Double, load: String)?
        for run in 1...runs {
            let figures = try index(into: store, pages: pages)
            log("\(label) quake-bake run \(run)/\(runs): \(String(format: "%.2f", figures.seconds)) s, load \(figures.load)")
            if ours.map({ figures.seconds < $0.seconds }) ?? true { ours = figures }
            let fetched = try index(into: store, pages: pages, archive: true)
            log("\(label) quake-bake fetched pages run \(run)/\(runs): \(String(format: "%.2f", fetched.seconds)) s, load \(fetched.load)")
            if oursFetched.map({ fetched.seconds < $0.seconds }) ?? true { oursFetched = fetched }
            let one = try index(into: store, pages: single)
            log("\(label) quake-bake one file run \(run)/\(runs): \(String(format: "%.2f", one.seconds)) s, load \(one.load)")
            if oursSingle.map({ one.seconds < $0.seconds }) ?? true { oursSingle = one }
            guard !noOgr2ogr else { continue }
            let ogr = try ogr2ogr(geojson, into: ogrOutput)
            log("\(label) ogr2ogr run \(run)/\(runs): \(String(format: "%.2f", ogr.seconds)) s, load \(ogr.load)")
            if theirs.map({ ogr.seconds < $0.seconds }) ?? true { theirs = ogr }
        }
        rows.append(ours!.row("\(label) \(name), full build"))
        rows.append(oursFetched!.row("\(label) \(name), fetched pages"))
        rows.append(oursSingle!.row("\(label) \(name), one GeoJSON file"))
        guard let theirs, let ours, let oursFetched, let oursSingle else { return store }
        let size = (try? FileManager.default.attributesOfItem(atPath: ogrOutput.path)[.size] as? Int) ?? 0
        rows.append(IndexFigures.row("(c) ogr2ogr, same events as \(label)", events: ours.events, seconds: theirs.seconds, cpu: nil,
                                     load: theirs.load, rss: nil, size: size, check: ""))
        let rate = Double(ours.events) / theirs.seconds
        let ratio = ours.eventsPerSecond / rate, quotedRatio = ours.eventsPerSecond / Self.quotedOgr2ogrRate
        notes.append("""
            \(label) against ogr2ogr: \(String(format: "%.1f", ratio))× its events/s measured here (\(Format.count(Int(ours.eventsPerSecond))) against \
            \(Format.count(Int(rate)))), \(String(format: "%.1f", quotedRatio))× the \(Format.count(Int(Self.quotedOgr2ogrRate))) events/s the issue quotes; \
            the \(Int(Self.target))× target is \(ratio >= Self.target ? "met" : "NOT met") against the measured rate and \
            \(quotedRatio >= Self.target ? "met" : "NOT met") against the quoted one.
            """)
        notes.append("\(label) the same pages indexed as fetch's archive is (their SHA-256 known): \(String(format: "%.1f", oursFetched.eventsPerSecond / rate))× "
                     + "ogr2ogr's events/s (\(Format.count(Int(oursFetched.eventsPerSecond))) against \(Format.count(Int(rate)))).")
        let singleRatio = oursSingle.eventsPerSecond / rate
        notes.append("\(label) from one GeoJSON file, the file ogr2ogr reads: \(String(format: "%.1f", singleRatio))× its events/s "
                     + "(\(Format.count(Int(oursSingle.eventsPerSecond))) against \(Format.count(Int(rate)))), peak RSS \(Format.bytes(oursSingle.peakResidentBytes)).")
        try? FileManager.default.removeItem(at: geojson)
        try? FileManager.default.removeItem(at: ogrOutput)
        return store
    }

    /// One index run in a child process, into a fresh store, or into a copy of `template` when given.
    /// With `archive`, the pages are indexed as fetch's archive is (`Child.archivePage`), else as `--from` files.
    private func index(into store: URL, pages: URL, template: URL? = nil, archive: Bool = false) throws -> IndexFigures {
        try? FileManager.default.removeItem(at: store)
        if let template { try FileManager.default.copyItem(at: template, to: store) }
        let output = try IndexFigures.run(Bundle.main.executablePath ?? CommandLine.arguments[0],
                                          ["child", store.path, pages.path] + (archive ? ["--archive"] : []))
        return try JSONDecoder().decode(IndexFigures.self, from: Data(output.utf8))
    }

    /// One ogr2ogr run on `geojson`: seconds and the load as it began.
    private func ogr2ogr(_ geojson: URL, into output: URL) throws -> (seconds: Double, load: String) {
        try? FileManager.default.removeItem(at: output)
        let load = ProcessFigures.loadAverage()
        let (seconds, _) = try ProcessFigures.timed {
            try IndexFigures.run("ogr2ogr", ["-f", "SQLite", "-dsco", "SPATIALITE=YES", output.path, geojson.path])
        }
        return (seconds, load)
    }

    /// The fastest of `count` runs of `body`.
    private func fastest(_ count: Int, _ body: () throws -> IndexFigures) throws -> IndexFigures {
        var best = try body()
        for _ in 1..<count {
            let figures = try body()
            if figures.seconds < best.seconds { best = figures }
        }
        return best
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data("bench-index: \(message)\n".utf8))
    }
}

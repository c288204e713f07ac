// bench-export: figures for the `## export` section of BENCHMARKS.md.
//
//   bench-export [--data DIR] [--work DIR] [--synthetic N] [--zooms 10,12] [--runs N] [--comcat FILE]
//                [--no-real] [--no-synthetic] [--no-comcat] [--keep]
//
// (a) the real 440,728 events of DIR/usgs/csv/all_day-union-2022-2026.csv.gz, as
//     FeatureCollection pages of 20,000, indexed into a fresh store (QuakeStore's
//     Indexer), then exported at each max zoom;
// (b) 1,000 of those events changed (newer `updated`, magnitude, position), indexed
//     into the same store, then exported again at max zoom 10 over (a copy of) the z10
//     bundle, --runs times (incremental: only changed rows are read, unchanged tiles
//     are reused); the fastest run is reported; the 1,000 are spread over the whole
//     catalog (every 440th event), the worst case for reuse;
// (b') then the 1,000 newest events changed (newer `updated`, magnitude), what a cron
//     run brings, exported the same way over (a copy of) the bundle (b) made;
// (c) N (default 1,000,000) synthetic events (SyntheticCatalog, seed 42), the same way;
// (d) the first 100,000 synthetic events at max zoom 5 and 12, the sizes tippecanoe
//     was timed on (see BENCHMARKS.md);
// (e) a second shape at whole-catalog scale: the ComCat-shaped GeoJSON file FILE
//     (`../shared/tools/gen_quakes.py -n 3000000 --seed 7`: every ComCat property, real-length
//     place names, dense swarms whose zoom-10 tiles are far over the size budget), indexed from
//     the file itself, then exported at each max zoom. Scripts/bench-export finds or makes it.
// Every index and export runs in a child process (`bench-export child-index|child-export`),
// so the peak RSS and the CPU time are the export's own.
import ArgumentParser
import BenchSupport
import QuakeSynthetic
import Foundation
import QuakeCatalog
import QuakeCommon

@main
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-export",
        abstract: "Prints the export figures of BENCHMARKS.md (## export) as a Markdown table.",
        subcommands: [Measure.self, ChildExport.self, ChildIndex.self],
        defaultSubcommand: Measure.self)
}

/// The benchmark itself (the default subcommand).
struct Measure: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "measure", abstract: "Index and export the benchmark inputs; print the table.")

    @Option(help: ArgumentHelp("The shared data directory (holds usgs/csv/all_day-union-2022-2026.csv.gz).", valueName: "dir"))
    var data = "../shared/data"

    @Option(help: ArgumentHelp("Scratch directory, emptied first.", valueName: "dir"))
    var work = NSTemporaryDirectory() + "quake-bake-bench-export"

    @Option(help: "Synthetic events for run (c).")
    var synthetic = 1_000_000

    @Option(help: ArgumentHelp("Max zooms of runs (a) and (c), comma-separated.", valueName: "list"))
    var zooms = "10,12"

    @Option(help: "Incremental exports in run (b), each over a fresh copy of the z10 bundle; the fastest is reported.")
    var runs = 3

    @Flag(help: "Skip the real-data runs (a) and (b).")
    var noReal = false

    @Flag(help: "Skip the synthetic runs (c) and (d).")
    var noSynthetic = false

    @Option(help: ArgumentHelp("The ComCat-shaped GeoJSON file of run (e) (made by ../shared/tools/gen_quakes.py -n 3000000 --seed 7; Scripts/bench-export finds or makes it).",
                               valueName: "file"))
    var comcat: String?

    @Flag(help: "Skip the ComCat-shaped run (e).")
    var noComcat = false

    @Flag(help: "Keep the work directory.")
    var keep = false

    func validate() throws {
        guard synthetic >= 100_000 else { throw ValidationError("--synthetic must be at least 100000 (run (d) takes the first 100,000)") }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1") }
        guard !maxZooms.isEmpty, maxZooms.allSatisfy({ (0...16).contains($0) }) else { throw ValidationError("--zooms takes zooms 0…16, e.g. 10,12") }
    }

    private var maxZooms: [Int] { zooms.split(separator: ",").compactMap { Int($0) } }

    func run() throws {
        let data = URL(fileURLWithPath: data)
        let work = URL(fileURLWithPath: work)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: work) } }

        print("bench-export on \(ProcessInfo.processInfo.activeProcessorCount) cores; machine reference \(ProcessFigures.machineReference()) "
              + "(lower is faster; see BENCHMARKS.md); work directory \(work.path)")
        print(ExportFigures.header)
        let realFile = data.appendingPathComponent("usgs/csv/all_day-union-2022-2026.csv.gz")
        if noReal {
            print(ExportFigures.note("(a) real", "skipped (--no-real)"))
        } else if FileManager.default.fileExists(atPath: realFile.path) {
            try measureReal(realFile, in: work.appendingPathComponent("real"))
        } else {
            print(ExportFigures.note("(a), (b) real", "\(realFile.path) not found (../shared/data is absent): real-data runs skipped"))
        }

        if noSynthetic {
            print(ExportFigures.note("(c), (d) synthetic", "skipped (--no-synthetic)"))
        } else {
            try measureSynthetic(in: work)
        }

        if noComcat {
            print(ExportFigures.note("(e) ComCat-shaped", "skipped (--no-comcat)"))
        } else if let comcat, FileManager.default.fileExists(atPath: comcat) {
            try measureComCatShaped(URL(fileURLWithPath: comcat), in: work.appendingPathComponent("comcat"))
        } else {
            let why = comcat.map { "\($0) not found" } ?? "no --comcat file given"
            print(ExportFigures.note("(e) ComCat-shaped", "\(why): skipped (Scripts/bench-export makes it with ../shared/tools/gen_quakes.py)"))
        }
    }

    /// Runs (c) and (d).
    private func measureSynthetic(in work: URL) throws {
        let synthetic = work.appendingPathComponent("synthetic")
        let (store, index) = try Children.buildStore(SyntheticCatalog.ending(count: self.synthetic, seed: 42).prefix(self.synthetic), in: synthetic)
        for zoom in maxZooms {
            print(try Children.export(store: store, out: synthetic.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom)
                .row("(c) synthetic", maxZoom: zoom, index: index))
        }
        if !keep { try? FileManager.default.removeItem(at: synthetic) }

        let small = work.appendingPathComponent("synthetic-100k")
        let (smallStore, smallIndex) = try Children.buildStore(SyntheticCatalog(seed: 42).prefix(100_000), in: small)
        for zoom in [5, 12] {
            print(try Children.export(store: smallStore, out: small.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom)
                .row("(d) synthetic", maxZoom: zoom, index: smallIndex))
        }
    }

    /// Runs (e): `file` indexed as it is (one source, as `quake-bake index --from` reads it), then exported.
    private func measureComCatShaped(_ file: URL, in directory: URL) throws {
        let store = directory.appendingPathComponent("store/quakes.sqlite")
        let index = try Children.index(store: store, source: file)
        for zoom in maxZooms {
            print(try Children.export(store: store, out: directory.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom)
                .row("(e) ComCat-shaped", maxZoom: zoom, index: index))
        }
        if !keep { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs (a) and (b).
    private func measureReal(_ file: URL, in directory: URL) throws {
        let page = CatalogFile.read(file)
        if let problem = page.problem { throw QuakeBakeError(problem) }
        let (store, index) = try Children.buildStore(page.events, in: directory)
        for zoom in Set(maxZooms + [10]).sorted() {
            let figures = try Children.export(store: store, out: directory.appendingPathComponent("bundles-z\(zoom)"), maxZoom: zoom)
            if maxZooms.contains(zoom) { print(figures.row("(a) real", maxZoom: zoom, index: index)) }
        }
        // (b) 1,000 changed versions of stored events (every 440th: all four years, all regions),
        // then incremental exports over copies of the z10 bundle.
        let step = page.events.count / 1000
        let spread = stride(from: 0, to: page.events.count, by: step).prefix(1000).map { i -> QuakeEvent in
            var e = page.events[i]
            e.updated += 60_000
            e.mag = (e.mag ?? 1) + 0.3
            e.latitude = min(90, (e.latitude ?? 0) + 0.01)
            e.status = "reviewed"
            return e
        }
        let afterSpread = try measureIncremental(spread, named: "changes", store: store, over: directory.appendingPathComponent("bundles-z10"),
                                                 label: "(b) real, 1,000 changed, incremental", in: directory)
        // (b') the 1,000 newest events get a new version, over the bundle (b) made.
        let newest = page.events.sorted { ($0.time ?? 0, $0.id) > ($1.time ?? 0, $1.id) }.prefix(1000).map { event -> QuakeEvent in
            var e = event
            e.updated += 120_000
            e.mag = (e.mag ?? 1) + 0.1
            return e
        }
        _ = try measureIncremental(newest, named: "changes-newest", store: store, over: afterSpread,
                                   label: "(b') real, 1,000 newest changed, incremental", in: directory)
    }

    /// Copies the output directory `source` as `cp -a` does: with the files' modification times,
    /// so that the export over the copy finds the current version's files as the export that
    /// published them left them (`.export-cache/published-files.txt`), as a cron run does, and does
    /// not hash them (`FileManager.copyItem` gives them new times).
    private static func copyPreservingTimes(_ source: URL, to destination: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = ["-a", source.path, destination.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw QuakeBakeError("cp -a \(source.path) \(destination.path) failed") }
    }

    /// Indexes `changed` into `store`, then exports at max zoom 10 over copies of the bundle
    /// directory `before`, `runs` times; prints the fastest and returns the directory of the
    /// last export.
    private func measureIncremental(_ changed: [QuakeEvent], named name: String, store: URL, over before: URL,
                                    label: String, in directory: URL) throws -> URL {
        let changes = directory.appendingPathComponent(name)
        _ = try FeatureCollectionPages.write(changed, pageSize: 20_000, to: changes)
        let changeIndex = try Children.index(store: store, source: changes)
        let copy = directory.appendingPathComponent("bundles-z10-after-\(name)")
        var fastest: ExportFigures?
        for _ in 0..<runs {
            try? FileManager.default.removeItem(at: copy)
            try Self.copyPreservingTimes(before, to: copy)
            sync()  // the copy just made (240 MB) is not the export's to write back (as in Scripts/bench-deltas)
            let figures = try Children.export(store: store, out: copy, maxZoom: 10)
            if fastest == nil || figures.seconds < fastest!.seconds { fastest = figures }
        }
        print(fastest!.row(label, maxZoom: 10, index: changeIndex))
        return copy
    }
}

// bench-index: the figures of the `## index` section of BENCHMARKS.md.
//
//   bench-index [--data DIR] [--work DIR] [--synthetic N] [--runs N] [--no-ogr2ogr] [--keep]
//
// (a) the real events of DIR/usgs/csv/all_day-union-2022-2026.csv.gz, written as
//     gzip FeatureCollection pages of 20,000 and indexed into a fresh store;
// (b) N (default 1,000,000) synthetic events (SyntheticCatalog, seed 42), the same way;
// (a, b) also indexed from one GeoJSON file (index --from of one file), the file ogr2ogr reads,
//     and (a) from the CSV.gz file itself;
// (c) ogr2ogr -f SQLite -dsco SPATIALITE=YES on the same events as (a) and (b), each as
//     one GeoJSON file, for the ratio;
// (d) 1,000 changed events (newer versions of events of (a)) indexed into the store of (a).
// `bench-index parsers [FILE]` compares the GeoJSON reader with Foundation's on one page.
// Each index run is a child process (`bench-index child`), so that its peak RSS and CPU
// time are its own. The runs of quake-bake and of ogr2ogr alternate, so that both meet
// the same load on the shared machine, and each measurement is the fastest of --runs
// (default 3), as other work only ever slows a run down. Times are wall clock; CPU is
// user + system over all threads (parsing and writing overlap on two cores).
import ArgumentParser

@main
struct BenchIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-index",
        abstract: "Prints the index figures of BENCHMARKS.md (## index) as a Markdown table.",
        subcommands: [Measure.self, Child.self, Parsers.self],
        defaultSubcommand: Measure.self)
}

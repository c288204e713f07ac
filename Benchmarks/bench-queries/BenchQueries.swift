// bench-queries: figures for the `## queries` section of BENCHMARKS.md: how long each query an
// app makes (QuakeBundleKit's QuakeBundle) takes over a bundle, the real 440k one in
// Scripts/bench-queries.
//
//   bench-queries --bundle DIR [--runs N] [--seed S]
//
// Opens the bundle (and times the opening and the first query, which builds the in-memory
// index), then runs each case --runs times over rectangles and windows drawn from a seed, and
// prints per case the median, 95th percentile and slowest time and the mean answer size. Beside
// the rectangle cases, the same query as plain SQL over the app database's R-tree (`ORDER BY mag
// DESC LIMIT 100`, 3 runs of each), which is what the library does not do, for comparison.
import ArgumentParser
import BenchSupport
import Foundation
import GRDB
import QuakeBundleKit
import QuakeCommon

@main
struct BenchQueries: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-queries",
        abstract: "Prints the query figures of BENCHMARKS.md (## queries) as a Markdown table.")

    @Option(help: ArgumentHelp("A bundle directory (or a `current` link to one).", valueName: "dir"))
    var bundle: String

    @Option(help: "Runs of each case.")
    var runs = 200

    @Option(help: "Seed of the rectangles and windows.")
    var seed: UInt64 = 45

    func run() throws {
        let clock = QueryClock()
        let directory = URL(fileURLWithPath: bundle)
        let before = ProcessFigures.peakResidentBytes()
        let (openSeconds, quakes) = try ProcessFigures.timed { try QuakeBundle(directory: directory) }
        let cpuBefore = QueryClock.threadCPU()
        let (indexSeconds, _) = try ProcessFigures.timed { try quakes.quakes(in: .world, limit: 1) }
        let indexCPU = QueryClock.threadCPU() - cpuBefore
        let grown = ProcessFigures.peakResidentBytes() - before
        let sql = try DatabaseQueue(path: quakes.directory.appendingPathComponent("quakes.sqlite").path, configuration: readOnly)
        let span = try sql.read { try Row.fetchOne($0, sql: "SELECT min(time), max(time), count(*) FROM events")! }
        let (first, last, count): (Int64, Int64, Int) = (span[0], span[1], span[2])
        Self.say("bundle \(quakes.version): \(count) quakes; opened in \(Self.ms(openSeconds)), the index built by the first query in \(Self.ms(indexSeconds)) (CPU \(Self.ms(indexCPU))), "
              + "peak memory +\(grown / 1_000_000) MB; machine reference \(ProcessFigures.machineReference()), load \(ProcessFigures.loadAverage())")
        Self.say("")
        Self.say("| query | runs | median | p95 | slowest | CPU, median | answers (mean) | SQL over the R-tree, median |")
        Self.say("|---|---:|---:|---:|---:|---:|---:|---:|")

        var random = SeededGenerator(seed: seed)
        let day: Int64 = 86_400_000
        let windows: [(String, () -> TimeWindow)] = [
            ("all time", { .all }),
            ("the last 7 days", { TimeWindow(start: last - 7 * day, end: nil) }),
            ("a year", { let s = first + Int64(random.nextUnit() * Double(last - first - 365 * day)); return TimeWindow(start: s, end: s + 365 * day) }),
            ("a day", { let s = first + Int64(random.nextUnit() * Double(last - first - day)); return TimeWindow(start: s, end: s + day) }),
        ]
        let rects: [(String, () -> MapRect)] = [
            ("the world", { .world }),
            ("a continent, 60°×40°", { random.rect(width: 60, height: 40) }),
            ("a region, 10°×8°", { random.rect(width: 10, height: 8) }),
            ("a city, 1°×1°", { random.rect(width: 1, height: 1) }),
            ("across the antimeridian, 30°×30°", { MapRect(west: 165 + random.nextUnit() * 10, south: -45 + random.nextUnit() * 30, east: -175 + random.nextUnit() * 10, north: -15 + random.nextUnit() * 30) }),
        ]
        for (rectName, rect) in rects {
            for (windowName, window) in windows {
                var answers = 0, sqlTimes: [Double] = []
                let times = try (0..<runs).map { _ -> Double in
                    let (r, w) = (rect(), window())
                    let (seconds, found) = try clock.measure { try quakes.quakes(in: r, during: w, limit: 100) }
                    answers += found.count
                    if sqlTimes.count < 3 { sqlTimes.append(try ProcessFigures.timed { try sqlBiggest(sql, r, w) }.seconds) }
                    return seconds
                }
                clock.row("top 100 in \(rectName), \(windowName)", times, answers, sql: sqlTimes)
            }
        }
        let ids = try sql.read { try Int64.fetchAll($0, sql: "SELECT rowid FROM events") }
        var answers = 0
        clock.row("details by feature id", try (0..<runs).map { _ in
            let id = ids[Int(random.next() % UInt64(ids.count))]
            let (seconds, details) = try clock.measure { try quakes.details(featureID: id) }
            answers += details == nil ? 0 : 1
            return seconds
        }, answers)
        answers = 0
        clock.row("the recent layer", try (0..<runs).map { _ in
            let (seconds, found) = try clock.measure { try quakes.recent() }
            answers += found.count
            return seconds
        }, answers)
        for (name, rect, window, bins) in [("the world, all time, 200 bins", { MapRect.world }, { TimeWindow.all }, 200),
                                           ("a region 10°×8°, a year, 52 bins", { random.rect(width: 10, height: 8) }, windows[2].1, 52)] {
            answers = 0
            clock.row("timeline of \(name)", try (0..<runs).map { _ in
                let (r, w) = (rect(), window())
                let (seconds, bars) = try clock.measure { try quakes.timeline(in: r, during: w, bins: bins) }
                answers += bars.reduce(0) { $0 + $1.count }
                return seconds
            }, answers)
        }
    }

    private var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    /// The same query as plain SQL over the R-tree, biggest first.
    private func sqlBiggest(_ db: DatabaseQueue, _ rect: MapRect, _ window: TimeWindow) throws -> Int {
        let longitude = rect.west <= rect.east ? "r.min_lon <= \(rect.east) AND r.max_lon >= \(rect.west)"
            : "(r.max_lon >= \(rect.west) OR r.min_lon <= \(rect.east))"
        return try db.read { db in
            try Int64.fetchAll(db, sql: """
                SELECT e.rowid FROM events_rtree r JOIN events e ON e.rowid = r.id
                 WHERE \(longitude) AND r.min_lat <= \(rect.north) AND r.max_lat >= \(rect.south)
                   AND e.time >= \(window.start ?? .min) AND e.time < \(window.end ?? .max)
                 ORDER BY e.mag IS NULL, e.mag DESC, e.time DESC, e.rowid LIMIT 100
                """).count
        }
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

    /// Prints a line at once (into a file too: the run is long).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Times queries: wall and CPU seconds of each, a table row per case.
final class QueryClock {
    /// The CPU seconds of the queries measured since the last row printed.
    private var cpuTimes: [Double] = []

    /// Wall seconds of `body` (its CPU seconds go to `cpuTimes`, for the row the caller prints next).
    func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let cpu = Self.threadCPU()
        let (seconds, result) = try ProcessFigures.timed(body)
        cpuTimes.append(Self.threadCPU() - cpu)
        return (seconds, result)
    }

    func row(_ name: String, _ times: [Double], _ answers: Int, sql: [Double] = []) {
        let sorted = times.sorted(), cpu = cpuTimes.sorted()
        cpuTimes = []
        let sqlMedian = sql.isEmpty ? "—" : BenchQueries.ms(sql.sorted()[sql.count / 2])
        BenchQueries.say("| \(name) | \(times.count) | \(BenchQueries.ms(sorted[sorted.count / 2])) | \(BenchQueries.ms(sorted[min(sorted.count - 1, sorted.count * 95 / 100)])) "
              + "| \(BenchQueries.ms(sorted.last!)) | \(BenchQueries.ms(cpu[cpu.count / 2])) | \(String(format: "%.1f", Double(answers) / Double(times.count))) | \(sqlMedian) |")
    }

    /// This thread's CPU seconds so far (the machine's two cores are shared: wall times carry the others' load).
    static func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

}

extension SeededGenerator {
    /// A rectangle of this size somewhere on the map (not across the antimeridian).
    mutating func rect(width: Double, height: Double) -> MapRect {
        let west = -180 + nextUnit() * (360 - width), south = -80 + nextUnit() * (160 - height)
        return MapRect(west: west, south: south, east: west + width, north: south + height)
    }
}

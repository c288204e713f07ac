import Foundation

/// Figures about the running process, for benchmark reports.
public enum ProcessFigures {
    /// Peak resident set size of this process so far, in bytes (`VmHWM` from /proc).
    public static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else { return 0 }
        return kib * 1024
    }

    /// CPU seconds (user and system, all threads) this process has used so far.
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The one-minute load average (`/proc/loadavg`), or `?`: the two cores may be shared.
    public static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
    }

    /// How fast this machine runs today, for reading figures measured on different days: the
    /// fewest wall seconds of three runs of one fixed single-threaded job, a pseudo-random walk
    /// of 4 million dependent steps over a 64 MB table (memory latency, which the export's
    /// sweeps and SQLite pay too). Its first reading, 1.08–1.18 s, was on a slow day for this
    /// 2-core machine (2026-11-27, another process busy on one core; a Python loop of ten
    /// million appends took 1.7 s, against 0.7 s on a good day).
    public static func machineReference() -> String {
        let size = 1 << 24  // 16 Mi UInt32: 64 MB
        var table = [UInt32](repeating: 0, count: size)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in 0..<size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            table[i] = UInt32(truncatingIfNeeded: state >> 40) & UInt32(size - 1)
        }
        var best = Double.infinity
        for _ in 0..<3 {
            let (seconds, value) = timed { () -> UInt64 in
                var at = 0, sum: UInt64 = 0
                for step in 0..<4_000_000 {
                    at = Int(table[at] ^ UInt32(truncatingIfNeeded: step)) & (size - 1)
                    sum = (sum &+ UInt64(at)) &* 0x100_0000_01B3
                }
                return sum
            }
            best = min(best, seconds)
            keep(value)
        }
        return String(format: "%.2f s", best)
    }

    /// Uses `value` as far as the optimizer can tell, so that the work that made it is not left out.
    @_optimize(none)
    private static func keep(_ value: UInt64) {}

    /// Seconds `body` takes on the wall clock, and its result.
    public static func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let start = DispatchTime.now()
        let result = try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, result)
    }
}

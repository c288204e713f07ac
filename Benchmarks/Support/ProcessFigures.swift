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

    /// Seconds `body` takes on the wall clock, and its result.
    public static func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
        let start = DispatchTime.now()
        let result = try body()
        return (Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, result)
    }
}

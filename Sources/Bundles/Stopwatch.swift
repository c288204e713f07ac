import Foundation
import Logging

/// Times the phases of an export for the debug log (`--verbose`): wall time, the CPU time
/// of the whole process (every thread, background work included) and of the calling thread.
struct Stopwatch {
    private var last = DispatchTime.now()
    private var lastCPU = Self.processCPUSeconds()
    private var lastThreadCPU = Self.threadCPUSeconds()
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Runs `body` and logs its time under `phase`, said of what it returned.
    mutating func measure<T>(_ phase: (T) -> String, _ body: () throws -> T) rethrows -> T {
        last = DispatchTime.now()
        lastCPU = Self.processCPUSeconds()
        lastThreadCPU = Self.threadCPUSeconds()
        let value = try body()
        lap(phase(value))
        return value
    }

    /// Runs `body` and logs its time under `phase`.
    mutating func measure<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
        try measure({ _ in phase }, body)
    }

    /// Logs the time since the previous lap under `phase`.
    mutating func lap(_ phase: String) {
        let now = DispatchTime.now(), cpu = Self.processCPUSeconds(), threadCPU = Self.threadCPUSeconds()
        let seconds = Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9
        let figures = "\(String(format: "%.3f", seconds)) s, CPU \(String(format: "%.3f", cpu - lastCPU)) s "
            + "(this thread \(String(format: "%.3f", threadCPU - lastThreadCPU)) s)"
        logger.debug("\(phase): \(figures)\(Self.residentNote)")
        last = now
        lastCPU = cpu
        lastThreadCPU = threadCPU
    }

    /// Wall seconds since `start`.
    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// CPU seconds (user and system) of every thread of the process so far.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds of the calling thread so far.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// ` (peak RSS n MB)` from /proc on Linux, empty elsewhere.
    private static var residentNote: String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return "" }
        return " (peak RSS \(kib / 1024) MB)"
    }
}

import Foundation
import Logging

/// Times the phases of an export for the debug log (`--verbose`).
struct Stopwatch {
    private var last = DispatchTime.now()
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Logs the time since the previous lap under `phase`.
    mutating func lap(_ phase: String) {
        let now = DispatchTime.now()
        let seconds = Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9
        logger.debug("\(phase): \(String(format: "%.3f", seconds)) s\(Self.residentNote)")
        last = now
    }

    /// ` (peak RSS n MB)` from /proc on Linux, empty elsewhere.
    private static var residentNote: String {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return "" }
        return " (peak RSS \(kib / 1024) MB)"
    }
}

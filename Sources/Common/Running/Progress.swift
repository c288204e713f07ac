import Foundation

/// Where a long stage reports how far it has got.
///
/// Stages call `update` as often as they like; a sink decides what to show.
/// `Progress.silent` shows nothing (cron, `--quiet`, tests); `Progress.terminal`
/// draws one self-updating line on standard error.
public protocol ProgressSink: Sendable {
    /// Reports the current state of the stage.
    func update(_ snapshot: ProgressSnapshot)
    /// Ends the progress display (the line is cleared).
    func finish()
}

/// A moment in a long stage: `done` of `total` units, plus a free-form detail.
public struct ProgressSnapshot: Sendable, Equatable {
    public var stage: String
    public var done: Int
    public var total: Int?
    public var unit: String
    public var detail: String

    public init(stage: String, done: Int, total: Int?, unit: String, detail: String = "") {
        self.stage = stage
        self.done = done
        self.total = total
        self.unit = unit
        self.detail = detail
    }
}

/// The progress sinks quake-bake ships.
public enum Progress {
    /// Shows nothing.
    public static let silent: any ProgressSink = SilentProgress()

    /// A progress line on standard error when it is a terminal, else nothing.
    public static func automatic(quiet: Bool) -> any ProgressSink {
        (!quiet && StandardError.isTerminal) ? TerminalProgress() : silent
    }
}

struct SilentProgress: ProgressSink {
    func update(_ snapshot: ProgressSnapshot) {}
    func finish() {}
}

/// Draws `stage [#####-----] 12/40 unit · detail · 1,234 unit/s` at most ten times a second.
final class TerminalProgress: ProgressSink, @unchecked Sendable {
    private let lock = NSLock()
    private let started = Date()
    private var lastDraw = Date.distantPast

    func update(_ snapshot: ProgressSnapshot) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let complete = snapshot.total.map { snapshot.done >= $0 } ?? false
        guard complete || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        ProgressLine.show(Self.render(snapshot, elapsed: now.timeIntervalSince(started)))
    }

    func finish() {
        ProgressLine.show(nil)
    }

    static func render(_ s: ProgressSnapshot, elapsed: TimeInterval) -> String {
        var parts = [s.stage]
        if let total = s.total, total > 0 {
            let width = 24
            let filled = min(width, Int(Double(width) * Double(s.done) / Double(total)))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append("\(Format.count(s.done))/\(Format.count(total)) \(s.unit)")
        } else {
            parts.append("\(Format.count(s.done)) \(s.unit)")
        }
        if !s.detail.isEmpty { parts.append(s.detail) }
        if elapsed > 0.5 { parts.append("\(Format.count(Int(Double(s.done) / elapsed))) \(s.unit)/s") }
        return parts.joined(separator: " · ").replacingOccurrences(of: "· [", with: "[")
    }
}

/// The one progress line on the terminal; log lines clear it and redraw it around themselves.
enum ProgressLine {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: String?

    /// Replaces the progress line (`nil` removes it).
    static func show(_ line: String?) {
        lock.withLock {
            clearIfShown()
            current = line
            redrawIfShown()
        }
    }

    /// Writes `text` to standard error, keeping the progress line below it.
    static func write(_ text: String) {
        lock.withLock {
            clearIfShown()
            FileHandle.standardError.write(Data(text.utf8))
            redrawIfShown()
        }
    }

    private static func clearIfShown() {
        if current != nil { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }

    private static func redrawIfShown() {
        if let current { FileHandle.standardError.write(Data(current.utf8)) }
    }
}

/// Number formatting for people: `12,345`, `3.2 MB`.
public enum Format {
    /// `12345` → `12,345`.
    public static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// `1, "event"` → `1 event`, `1234, "event"` → `1,234 events`: a count with its noun.
    public static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count(n)) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// `95.0` → `95`, `2.5` → `2.5`: a number as a person would write it.
    public static func number(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// `3_400_000` → `3.2 MB` (binary units).
    public static func bytes(_ n: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(n)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
    }
}

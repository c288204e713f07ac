import Foundation
import Logging

/// How log lines are written to standard error.
public enum LogFormat: String, CaseIterable, Sendable {
    /// `2026-11-22T18:51:15Z warning fetch: message key=value`, for people and plain cron mail.
    case text
    /// One JSON object per line, for log shippers.
    case json
}

/// Sets up swift-log once per process.
public enum LogSetup {
    /// Bootstraps the logging system. Call once, before any logger is made.
    public static func bootstrap(format: LogFormat, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StandardErrorLogHandler(label: label, format: format)
            handler.logLevel = level
            return handler
        }
    }
}

/// A log handler writing one line per message to standard error, as text or JSON.
public struct StandardErrorLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let format: LogFormat

    public init(label: String, format: LogFormat) {
        self.label = label
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let time = ISO8601DateFormatter().string(from: Date())
        var line: String
        switch format {
        case .text:
            line = "\(time) \(event.level) \(label): \(event.message)"
            for key in merged.keys.sorted() { line += " \(key)=\(merged[key]!)" }
        case .json:
            var object: [String: String] = ["time": time, "level": "\(event.level)", "stage": label, "message": "\(event.message)"]
            for (key, value) in merged { object[key] = "\(value)" }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        }
        StandardError.write(line + "\n")
    }
}

/// Serialised writes to standard error, shared by logs and the progress line.
public enum StandardError {
    /// Writes `text` to standard error (above the progress line, if one is shown).
    public static func write(_ text: String) {
        ProgressLine.write(text)
    }

    /// True when standard error is a terminal (progress bars are drawn only then).
    public static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}

import Foundation
import Logging

/// Keeps every message logged through it (debug level and up), for tests that check what a
/// run said, and so that warnings a test causes on purpose do not fill the test output.
public final class RecordedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private let label: String

    public init(label: String = "export") { self.label = label }

    /// A logger writing here.
    public var logger: Logger {
        Logger(label: label) { _ in Handler(log: self) }
    }

    /// The messages so far.
    public var messages: [String] { lock.withLock { lines } }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.lock.withLock { log.lines.append(event.message.description) }
        }
    }
}

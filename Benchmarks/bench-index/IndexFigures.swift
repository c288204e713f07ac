import Foundation
import QuakeCommon

/// What one child index run measured, and its row of the Markdown table.
struct IndexFigures: Codable {
    var events: Int
    var seconds: Double
    /// CPU time of the child process (user and system, every thread).
    var cpuSeconds: Double
    /// The one-minute load average when the run started (the two cores are shared).
    var load: String
    var peakResidentBytes: Int
    var storeBytes: Int
    var rtreeCheck: String
    var rows: Int

    var eventsPerSecond: Double { Double(events) / seconds }

    static let header = """
        | run | events | time | CPU | load | events/s | peak RSS | store | check |
        |---|---:|---:|---:|---:|---:|---:|---:|---|
        """

    func row(_ label: String) -> String {
        Self.row(label, events: events, seconds: seconds, cpu: cpuSeconds, load: load, rss: peakResidentBytes, size: storeBytes,
                 check: "rtreecheck \(rtreeCheck), \(Format.count(rows)) rows")
    }

    static func row(_ label: String, events: Int, seconds: Double, cpu: Double?, load: String, rss: Int?, size: Int, check: String) -> String {
        let cells = [label, Format.count(events), String(format: "%.2f s", seconds), cpu.map { String(format: "%.1f s", $0) } ?? "",
                     load, Format.count(Int(Double(events) / seconds)), rss.map(Format.bytes) ?? "", Format.bytes(size), check]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// Runs `command` (a path, or a name looked up on PATH) and returns its standard output;
    /// throws when it fails.
    @discardableResult
    static func run(_ command: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command.hasPrefix("/") ? command : "/usr/bin/env")
        process.arguments = command.hasPrefix("/") ? arguments : [command] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw QuakeBakeError("\(command) \(arguments.prefix(3).joined(separator: " ")) … failed with status \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}

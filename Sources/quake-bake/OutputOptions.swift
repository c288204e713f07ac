import ArgumentParser
import Logging
import QuakeCommon

/// How a command reports: quiet, verbose, log format. Every command has these (those that work
/// in a workspace beside `CommonOptions`).
struct OutputOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print only warnings and errors; no progress bar.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print debug detail (every request, every decision).")
    var verbose = false

    @Option(name: .long, help: ArgumentHelp("Log line format: text, or json (one object per line, for log shippers).", valueName: "text|json"))
    var logFormat: LogFormat = .text

    func validate() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose cannot be used together.") }
    }

    /// Progress display: a bar on a terminal, nothing under cron or --quiet.
    var progress: any ProgressSink { Progress.automatic(quiet: quiet || logFormat == .json) }

    /// Sets up logging and returns the logger for `stage`.
    func logger(for stage: String) -> Logger {
        LogSetup.bootstrap(format: logFormat, level: verbose ? .debug : (quiet ? .warning : .info))
        return Logger(label: stage)
    }
}

extension LogFormat: ExpressibleByArgument {}

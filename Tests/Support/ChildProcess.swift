import Foundation

/// Runs a command as a child process, for tests: `quake-bake`, the Python witnesses, `spatialite`, `ogrinfo`.
///
/// `command` is a path, or a name looked up on `PATH`; the child inherits this process's
/// environment. Standard input is empty; standard output and error are captured to files
/// (a chatty child never blocks on a full pipe).
///
/// ```swift
/// let outcome = try await ChildProcess.run("ogrinfo", ["-ro", "-so", store.path])
/// let json = try await ChildProcess.run(WitnessScript.python.path, [script.path]).checked().standardOutput
/// let run = try await ChildProcess.run(quakeBake.path, ["index", …], killedWhen: { journalExists() })
/// ```
public enum ChildProcess {
    /// How a finished run exited and what it printed.
    public struct Outcome: Sendable {
        /// The command line, for messages.
        public var command: String
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        /// This outcome when the exit status is 0; else throws naming the command, its status and its standard error.
        public func checked() throws -> Outcome {
            guard status != 0 else { return self }
            throw Failure(description: "\(command) exited with status \(status): \(standardError)")
        }
    }

    /// The longest a child may run, in seconds, before it is killed as hung (the suite's children
    /// take seconds each, the slowest well under a minute on a loaded machine).
    static let longestRun = 900

    /// A command that could not start, or that failed (see `Outcome.checked()`).
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Runs the command to its end without blocking a thread of Swift's cooperative pool.
    public static func run(_ command: String, _ arguments: [String]) async throws -> Outcome {
        let launch = try Launch(command, arguments)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            do {
                try launch.start { continuation.resume() }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        return launch.outcome()
    }

    /// Runs the command to its end, blocking the calling thread: only for callers that cannot be
    /// `async` (the store tests' `sql` helper, called from synchronous code throughout).
    public static func runBlocking(_ command: String, _ arguments: [String]) throws -> Outcome {
        let launch = try Launch(command, arguments)
        // A semaphore, not `Process.waitUntilExit`, which polls a run loop.
        let exited = DispatchSemaphore(value: 0)
        try launch.start { exited.signal() }
        exited.wait()
        return launch.outcome()
    }

    /// Starts the command and returns at once, its output discarded (for tests that kill it), or
    /// its standard error kept in the file `standardError` (for a test to say why it ended early).
    public static func start(_ command: String, _ arguments: [String], standardError: URL? = nil) throws -> Process {
        let process = try discarding(command, arguments)
        if let standardError {
            guard FileManager.default.createFile(atPath: standardError.path, contents: nil) else {
                throw Failure(description: "cannot create \(standardError.path)")
            }
            process.standardError = try FileHandle(forWritingTo: standardError)
        }
        try launch(process, command, arguments)
        return process
    }

    /// How a run that was to be killed ended.
    public struct Interruption: Sendable {
        /// Whether SIGKILL ended it; `false` when it ended before the moment came.
        public var killed: Bool
        /// The exit status, or the signal that ended it.
        public var status: Int32
    }

    /// Starts the command, SIGKILLs it as soon as `moment()` holds, and waits for it to end (a
    /// child still running after `longestRun` seconds without the moment coming is killed, and the
    /// run throws).
    ///
    /// Starting, polling `moment` (every 2 ms) and killing all happen on a dispatch thread: under
    /// load Swift's cooperative pool can be starved for seconds, and the kill must land while the
    /// work it interrupts is under way. Standard output and error are discarded.
    public static func run(_ command: String, _ arguments: [String],
                           killedWhen moment: @escaping @Sendable () -> Bool) async throws -> Interruption {
        let process = try discarding(command, arguments)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try launch(process, command, arguments)
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                var signalled = false, hung = false
                let deadline = DispatchTime.now() + .seconds(longestRun)
                while exited.wait(timeout: .now() + .milliseconds(2)) == .timedOut {
                    if !signalled && moment() {
                        kill(process.processIdentifier, SIGKILL)
                        signalled = true
                    } else if !signalled && DispatchTime.now() > deadline {
                        kill(process.processIdentifier, SIGKILL)
                        signalled = true
                        hung = true
                    }
                }
                guard !hung else {
                    continuation.resume(throwing: Failure(description: "\(commandLine(command, arguments)) ran \(longestRun) s without an exit (hung?): killed"))
                    return
                }
                let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
                continuation.resume(returning: Interruption(killed: killed, status: process.terminationStatus))
            }
        }
    }

    /// Runs the command, sends it `signal` as soon as `moment()` holds, and returns how it ended
    /// and what it printed (for tests of how a run answers SIGTERM and SIGINT). `moment` is
    /// polled every 2 ms on a dispatch thread, as in `run(_:_:killedWhen:)`.
    public static func run(_ command: String, _ arguments: [String], signal: Int32,
                           when moment: @escaping @Sendable () -> Bool) async throws -> Outcome {
        let launch = try Launch(command, arguments)
        let exited = DispatchSemaphore(value: 0)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try launch.start { exited.signal() }
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                var signalled = false
                while exited.wait(timeout: .now() + .milliseconds(2)) == .timedOut {
                    if !signalled && moment() {
                        kill(launch.process.processIdentifier, signal)
                        signalled = true
                    }
                }
                continuation.resume(returning: launch.outcome())
            }
        }
    }

    /// A process for `command`, not yet started.
    private static func configured(_ command: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try executable(command)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// `command` itself when it is a path, else the first executable of that name on `PATH`.
    private static func executable(_ command: String) throws -> URL {
        if command.contains("/") { return URL(fileURLWithPath: command) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(command)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "cannot run \(command): not found on PATH (\(path))")
    }

    /// A process for `command` whose output goes nowhere, not yet started.
    private static func discarding(_ command: String, _ arguments: [String]) throws -> Process {
        let process = try configured(command, arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }

    /// Starts `process`; the error names the command when it cannot.
    private static func launch(_ process: Process, _ command: String, _ arguments: [String]) throws {
        do {
            try spawn(process)
        } catch {
            throw Failure(description: "cannot run \(commandLine(command, arguments)): \(error)")
        }
    }

    /// Starts `process`, one start at a time in this test process: every child of the tests is
    /// started here (also the stores, stand-ins and servers that outlive a test). Its pipes come
    /// from `pipe()`.
    ///
    /// Why: Foundation on Linux (`Process.run`) learns that a child has ended when the child's end
    /// of a socket pair closes, and closes the other descriptors in the new child only up to the
    /// highest one open when it began. A socket pair made meanwhile by another thread's start is
    /// inherited too, so a child that lives on (the shared SeaweedFS's S3 witness) held another
    /// child's end open, and that child's end was never seen: a full run hung with a `quake-bake`
    /// long exited (a zombie) and its test waiting for it. Started one at a time, no start makes
    /// its socket pair while another child is being spawned. (Files and connections that other
    /// code opens meanwhile may still be inherited; none of them tells that a child ended.)
    public static func spawn(_ process: Process) throws {
        try starting.withLock { try process.run() }
    }

    /// A pipe for a child's standard input or output, which no other child inherits: made while
    /// no child is being started, both ends close-on-exec (the child's own end is duplicated
    /// onto its 0, 1 or 2, which stays open).
    ///
    /// Why: the end of a pipe tells a child to stop (a store's shell, a stand-in, a witness all
    /// stop when their standard input closes) and tells a test that a child's output is complete.
    /// A full run hung because a stand-in started by another test at the moment a store's pipe
    /// was made inherited the pipe's writing end: the store's shell never saw its input close,
    /// and `stop()` waited for it for ever.
    public static func pipe() -> Pipe {
        starting.withLock {
            let pipe = Pipe()
            for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
                _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
            }
            return pipe
        }
    }

    private static let starting = NSLock()

    /// What each descriptor process `pid` holds open names, as `/proc/PID/fd` shows it
    /// (`pipe:[5818346]`, `/dev/null`, a file's path…); throws when the process is gone.
    public static func openDescriptors(of pid: pid_t) throws -> [String] {
        let directory = "/proc/\(pid)/fd"
        return try FileManager.default.contentsOfDirectory(atPath: directory).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)")
        }
    }

    /// The command line as a person would type it, shortened for messages.
    private static func commandLine(_ command: String, _ arguments: [String]) -> String {
        let line = ([command] + arguments).joined(separator: " ")
        return line.count > 300 ? line.prefix(300) + "…" : line
    }

    /// A configured process whose standard output and error go to files of a temporary directory.
    private final class Launch: @unchecked Sendable {
        let process: Process
        private let command: String
        private let arguments: [String]
        private let files = TemporaryDirectory("child-process")
        private let watchdog = NSLock()
        private var killedAfter: Int?

        init(_ command: String, _ arguments: [String]) throws {
            self.command = command
            self.arguments = arguments
            process = try ChildProcess.configured(command, arguments)
            process.standardOutput = try emptyFile("stdout")
            process.standardError = try emptyFile("stderr")
        }

        private func emptyFile(_ name: String) throws -> FileHandle {
            _ = FileManager.default.createFile(atPath: files.path(name).path, contents: nil)
            return try FileHandle(forWritingTo: files.path(name))
        }

        /// Starts the process; `exited` is called once it has ended. A child still running after
        /// `ChildProcess.longestRun` seconds is killed (SIGKILL) and its outcome says so: a hung
        /// child fails its test instead of hanging the whole run.
        func start(exited: @escaping @Sendable () -> Void) throws {
            process.terminationHandler = { _ in exited() }
            try ChildProcess.launch(process, command, arguments)
            let seconds = ChildProcess.longestRun
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) { [weak self] in
                guard let self, process.isRunning else { return }
                watchdog.withLock { killedAfter = seconds }
                kill(process.processIdentifier, SIGKILL)
            }
        }

        /// What the finished process printed and how it exited.
        func outcome() -> Outcome {
            let killed = watchdog.withLock { killedAfter }.map { "\n(killed by the test after \($0) s without an exit: hung?)" } ?? ""
            return Outcome(command: ChildProcess.commandLine(command, arguments), status: process.terminationStatus,
                           standardOutput: (try? String(contentsOf: files.path("stdout"), encoding: .utf8)) ?? "",
                           standardError: ((try? String(contentsOf: files.path("stderr"), encoding: .utf8)) ?? "") + killed)
        }
    }
}

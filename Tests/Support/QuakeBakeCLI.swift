import Foundation

/// Runs the built `quake-bake` executable as a real process, for tests of the command line.
public enum QuakeBakeCLI {
    /// What a finished run printed and how it exited.
    public struct Outcome: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// The binary (`$QUAKE_BAKE` overrides).
    public static func executableURL() throws -> URL {
        try BuiltExecutable.url(named: "quake-bake", override: "QUAKE_BAKE")
    }

    /// Starts `quake-bake arguments…` without waiting (for tests that kill it).
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `quake-bake arguments…` to the end, without blocking a thread of Swift's cooperative pool.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = TemporaryDirectory("quake-bake-cli")
        let out = output.path("stdout"), err = output.path("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try await exit(of: process)
        return Outcome(status: process.terminationStatus,
                       standardOutput: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                       standardError: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Starts `process` and waits for it to end.
    public static func exit(of process: Process) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}

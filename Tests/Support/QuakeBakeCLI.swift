import Foundation

/// Runs the built `quake-bake` executable as a real process, for tests of the command line.
public enum QuakeBakeCLI {
    /// What a finished run printed and how it exited.
    public typealias Outcome = ChildProcess.Outcome

    /// The binary (`$QUAKE_BAKE` overrides).
    private static func executableURL() throws -> URL {
        try BuiltExecutable.url(named: "quake-bake", override: "QUAKE_BAKE")
    }

    /// The binary's path, for tests that run it under another program (`unshare`, a shell).
    public static func path() throws -> String {
        try executableURL().path
    }

    /// Starts `quake-bake arguments…` without waiting, its output discarded (for tests that kill it)
    /// or its standard error kept in the file `standardError`.
    public static func start(_ arguments: [String], standardError: URL? = nil) throws -> Process {
        try ChildProcess.start(executableURL().path, arguments, standardError: standardError)
    }

    /// Runs `quake-bake arguments…` to the end, without blocking a thread of Swift's cooperative pool.
    public static func run(_ arguments: [String]) async throws -> Outcome {
        try await ChildProcess.run(executableURL().path, arguments)
    }

    /// Runs `quake-bake arguments…`, sends it `signal` as soon as `moment()` holds, and returns what it printed.
    public static func run(_ arguments: [String], signal: Int32, when moment: @escaping @Sendable () -> Bool) async throws -> Outcome {
        try await ChildProcess.run(executableURL().path, arguments, signal: signal, when: moment)
    }

    /// Runs `quake-bake arguments…` and SIGKILLs it as soon as `moment()` holds (see `ChildProcess.run(_:_:killedWhen:)`).
    public static func run(_ arguments: [String], killedWhen moment: @escaping @Sendable () -> Bool) async throws -> ChildProcess.Interruption {
        try await ChildProcess.run(executableURL().path, arguments, killedWhen: moment)
    }
}

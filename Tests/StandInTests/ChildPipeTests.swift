import Foundation
import Testing
import TestSupport

/// The children the tests start (stand-ins, stores, witnesses) stop when their standard input
/// closes, and the tests read their output to its end: a child must hold no pipe but its own,
/// or another child's pipe never closes and its test waits for ever (a full run hung so).
@Suite struct ChildPipeTests {
    /// A child started at the moment a pipe is made closes in itself only the descriptors that
    /// were open when its start began (`ChildProcess.spawn` says why). Such a start is
    /// `posix_spawn` with no descriptor closed: a pipe of `ChildProcess.pipe()` must not reach it.
    @Test func aPipeReachesNoChildButItsOwn() throws {
        let pipe = ChildProcess.pipe()
        let name = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)")
        let child = try Self.spawnInheritingEverything("/bin/sleep", ["sleep", "60"])
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        let held = try ChildProcess.openDescriptors(of: child)
        #expect(!held.isEmpty, "no descriptors read for child \(child)")
        #expect(!held.contains(name), "child \(child) holds \(name): \(held.sorted())")
    }

    /// Starts `path` as `posix_spawn` does with no file actions: every descriptor that is not
    /// close-on-exec is inherited.
    private static func spawnInheritingEverything(_ path: String, _ arguments: [String]) throws -> pid_t {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, nil, nil, argv, environ)
        guard status == 0 else { throw ChildProcess.Failure(description: "posix_spawn \(path): error \(status)") }
        return pid
    }
}

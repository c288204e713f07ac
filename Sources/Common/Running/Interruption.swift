import Dispatch
import Foundation

/// SIGINT and SIGTERM end a run cleanly: one line on standard error saying what was
/// interrupted and where, the actions registered for it (the bake records itself as
/// interrupted at its stage), then exit 130 (SIGINT) or 143 (SIGTERM).
///
/// The step under way is abandoned rather than finished: every write of the pipeline is
/// atomic (archive pages and bundles are renamed into place, the store changes in
/// transactions), so what a kill at any moment leaves is already consistent, and the next
/// run resumes from it. The workspace lock is a `flock`, released by the kernel as the
/// process ends, after its last write, never before.
///
/// The signals are caught by a plain handler that writes the signal's number into a pipe,
/// read by a thread of ours; the installing thread unblocks them. (A dispatch signal source
/// on Linux reads a signalfd, which sees a signal only while every thread blocks it: a
/// process started with them unblocked in one of its threads lost them, and one started
/// with them blocked, as children of some threads are, never saw them.)
public enum Interruption {
    private struct State {
        var command = "quake-bake"
        var stage = "start-up"
        /// Whether the stage leaves work a next run resumes from (not so for `serve`).
        var resumable = true
        var actions: [@Sendable (_ exitCode: Int32, _ note: String) -> Void] = []
        var installed = false
    }

    private static let lock = NSLock()
    /// The pipe's write end, set before the handler is installed.
    nonisolated(unsafe) private static var signalPipe: Int32 = -1
    nonisolated(unsafe) private static var state = State()

    /// Catches SIGINT and SIGTERM for the rest of the process, for `command` (e.g. `fetch`).
    public static func install(command: String) {
        lock.withLock {
            state.command = command
            state.stage = command
            guard !state.installed else { return }
            state.installed = true
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            signalPipe = ends[1]
            let readEnd = ends[0]
            let reader = Thread {
                var number: UInt8 = 0
                if (try? SystemIO.read(readEnd, into: &number, count: 1)) == 1 { interrupted(by: Int32(number)) }
            }
            reader.name = "signals"
            reader.start()
            var set = sigset_t()
            sigemptyset(&set)
            for number in [SIGINT, SIGTERM] {
                signal(number) { number in
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(Interruption.signalPipe, &byte, 1)  // async-signal-safe
                }
                sigaddset(&set, number)
            }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// Names the stage under way, for the message (`bake` moves through fetch, index, export).
    /// A stage that is not `resumable` (a server) is simply said to have stopped.
    public static func enter(stage: String, resumable: Bool = true) {
        lock.withLock { state.stage = stage; state.resumable = resumable }
    }

    /// Runs `action` when a signal ends the run, before the process exits; it is given the
    /// exit code and a note such as "interrupted by SIGTERM during index".
    public static func onInterrupt(_ action: @escaping @Sendable (_ exitCode: Int32, _ note: String) -> Void) {
        lock.withLock { state.actions.append(action) }
    }

    private static func interrupted(by number: Int32) -> Never {
        let (command, stage, actions, resumable) = lock.withLock { (state.command, state.stage, state.actions, state.resumable) }
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        let code = 128 + number
        let note = "interrupted by \(name) during \(stage)"
        for action in actions { action(code, note) }
        let line = resumable
            ? "quake-bake \(command): \(note); finished work is kept and the next run resumes from it (exit \(code))\n"
            : "quake-bake \(command): stopped by \(name) (exit \(code))\n"
        FileHandle.standardError.write(Data(line.utf8))
        _exit(code)
    }
}

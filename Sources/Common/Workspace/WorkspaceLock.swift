import Foundation

/// One lock per workspace, so two runs never write the same archive, store or bundles.
///
/// Built on `flock(2)`: the kernel drops the lock when its holder dies, so a
/// lock left by a killed run is never stale and the next run simply takes it.
/// The file names the holder (pid, command, start time) for messages and
/// `status`; it is emptied on release.
public final class WorkspaceLock: @unchecked Sendable {
    private let descriptor: Int32
    /// Guards `held`: a signal's action and `release()` may run on different threads.
    private let state = NSLock()
    private var held = true
    /// The lock file.
    public let path: URL

    /// Who holds (or last held) a lock.
    public struct Holder: Sendable, Equatable, Codable {
        public var pid: Int32
        public var command: String
        public var since: String
    }

    /// Takes the workspace lock without waiting.
    /// Throws an error with exit status 75 (temporary failure) when another run holds it.
    public init(workspace: Workspace, command: String) throws {
        try workspace.create()
        path = workspace.lockPath
        // O_NOFOLLOW: a `lock` symlink planted in the workspace would otherwise have its
        // target truncated (by root, under cron). Only a regular file is a lock.
        descriptor = open(path.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symlink; quake-bake will not follow it (remove it)" : String(cString: strerror(errno))
            throw QuakeBakeError("cannot open the lock file \(path.path): \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw QuakeBakeError("the lock file \(path.path) is not a regular file; remove it")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = WorkspaceLock.readHolder(path)
            close(descriptor)
            let who = holder.map { "`\($0.command)` (pid \($0.pid), since \($0.since))" } ?? "another quake-bake run"
            throw QuakeBakeError(.locked, "the workspace \(workspace.root.path) is in use by \(who); try again when it has finished")
        }
        let since = ISO8601DateFormatter().string(from: Date())
        let text = "\(getpid())\n\(command)\n\(since)\n"
        ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        // A run ended by SIGINT or SIGTERM names no holder once it is gone (the kernel drops the
        // flock as it exits; until its parent reaps it, the pid it leaves would still look alive).
        Interruption.onInterrupt { [weak self] _, _ in self?.forgetHolder() }
    }

    private func forgetHolder() {
        state.withLock { if held { ftruncate(descriptor, 0) } }
    }

    /// Releases the lock (also released when the process exits or is killed).
    public func release() {
        state.withLock {
            guard held else { return }
            held = false
            ftruncate(descriptor, 0)
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    /// The current holder, or `nil` when nobody holds the lock.
    ///
    /// Reads the file and checks the named process is alive; it never touches the
    /// lock itself, so asking cannot make a starting run find the workspace busy.
    public static func holder(of workspace: Workspace) -> Holder? {
        guard let holder = readHolder(workspace.lockPath) else { return nil }
        let alive = kill(holder.pid, 0) == 0 || errno == EPERM
        return alive ? holder : nil
    }

    private static func readHolder(_ path: URL) -> Holder? {
        guard let text = try? String(contentsOf: path, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3, let pid = Int32(lines[0]) else { return nil }
        return Holder(pid: pid, command: lines[1], since: lines[2])
    }
}

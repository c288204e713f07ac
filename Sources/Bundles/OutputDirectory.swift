import Foundation
import QuakeCommon

/// The directories export refuses to publish into: the root of the file system, a top-level
/// directory (`/etc`, `/usr`, `/home`, `/tmp`, …), the well-known system directories below
/// them, and home directories (yours, and any directly under `/home` or `/Users`). An export
/// fills its output directory with versions, `current` and a cache; pointed at one of these by
/// mistake (`out: ~`), it would mix them into a place that holds everything else.
/// Symlinks are followed first: a link to `/` is `/`.
public enum OutputDirectory {
    /// Well-known system directories below the top level (the top level is refused whole).
    static let systemDirectories: Set<String> = [
        "/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/include", "/usr/share", "/usr/src",
        "/usr/local", "/usr/local/bin", "/usr/local/sbin", "/usr/local/lib", "/usr/local/share", "/usr/local/etc",
        "/var/lib", "/var/log", "/var/cache", "/var/tmp", "/var/spool", "/var/mail", "/var/backups", "/var/www",
        "/var/run", "/var/lock", "/var/opt", "/var/local",
        "/System/Library", "/private/etc", "/private/var", "/private/tmp", "/Library/Application Support",
    ]

    /// Throws a usage error when `out` is one of the refused directories.
    public static func check(_ out: URL) throws {
        let path = resolved(out)
        let what: String
        let parts = path.split(separator: "/")
        if parts.isEmpty {
            what = "the root of the file system"
        } else if homes().contains(path) || parts.count == 2 && ["home", "Users"].contains(parts[0]) {
            what = "a home directory"
        } else if parts.count == 1 || systemDirectories.contains(path) {
            what = "a system directory"
        } else {
            return
        }
        let shown = path == out.standardizedFileURL.path ? path : "\(out.path) (\(path))"
        throw QuakeBakeError("the output directory \(shown) is \(what): bundles need a directory of their own, "
                             + "such as \(parts.isEmpty ? "" : path)/quakes; export writes versions, current and a cache into it", exitStatus: .usage)
    }

    /// The current user's home directories: `$HOME` and the password database's.
    private static func homes() -> Set<String> {
        var homes: Set<String> = []
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { homes.insert(resolved(URL(fileURLWithPath: home))) }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            homes.insert(resolved(URL(fileURLWithPath: String(cString: directory))))
        }
        return homes
    }

    /// `url` with `.` and `..` gone and the symlinks of the part that exists resolved.
    static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while existing.path != "/" {
            if let real = realpath(existing.path, nil) {
                defer { free(real) }
                return rest.reversed().reduce(URL(fileURLWithPath: String(cString: real))) { $0.appendingPathComponent($1) }.standardizedFileURL.path
            }
            rest.append(existing.lastPathComponent)
            existing.deleteLastPathComponent()
        }
        return rest.reversed().reduce(URL(fileURLWithPath: "/")) { $0.appendingPathComponent($1) }.path
    }
}

import Foundation

/// Writes files so that readers, and a crash at any moment, see either the old
/// file or the complete new one: write a temporary file beside the target,
/// fsync it, rename it over the target, fsync the directory.
public enum AtomicFile {
    /// Suffix of temporary files; anything ending in it is debris from a killed run.
    public static let temporarySuffix = ".qbtmp"

    /// `url` with the temporary suffix: where a file is written before it is renamed into place.
    public static func temporary(_ url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + temporarySuffix)
    }

    /// Atomically replaces (or creates) the file at `url` with `data`.
    public static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))\(temporarySuffix)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw posixError("cannot create \(temporary.path)") }
        do {
            try data.withUnsafeBytes { bytes in
                do {
                    try SystemIO.write(fd, bytes)
                } catch {
                    throw QuakeBakeError("cannot write \(temporary.path): \(error)")
                }
            }
            guard fsync(fd) == 0 else { throw posixError("cannot fsync \(temporary.path)") }
            close(fd)
        } catch {
            close(fd)
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let error = posixError("cannot rename \(temporary.path) to \(url.path)")
            unlink(temporary.path)
            throw error
        }
        syncDirectory(directory)
    }

    /// fsyncs a directory so a rename inside it is durable.
    public static func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// Removes temporary files left by killed runs under `directory` (recursively).
    /// Returns how many were removed.
    @discardableResult
    public static func removeDebris(under directory: URL) -> Int {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return 0 }
        var removed = 0
        for case let url as URL in walker where url.lastPathComponent.hasSuffix(temporarySuffix) {
            if (try? FileManager.default.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    private static func posixError(_ what: String) -> Error {
        let code = errno
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code),
                       userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(code)))"])
    }
}

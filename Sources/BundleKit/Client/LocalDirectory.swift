import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The local directory a ``BundleClient`` keeps a bundle in.
///
/// ```
/// DIR/
///   current -> versions/<v>      the bundle the app reads; a symlink replaced by rename(2)
///                                (versions/<v>+N if a directory not recorded as <v> was in the way)
///   versions/<v>/                a complete version: the files under their bundle names, and
///                                .installed.json (what was installed, for the next update)
///   versions/.<v>.qbtmp/         the next version while it is assembled (debris if killed)
///   downloads/<sha256>[.part]    objects being downloaded, by the sha256 the pointer gives
///   lock                         held (flock) while an update runs
/// ```
/// A version is assembled under a temporary name, renamed when complete and only then made
/// current, so `current` always leads to a whole version: a kill at any moment leaves the old one
/// or the new one. Older versions and downloads go once the switch is made.
struct LocalDirectory {
    let root: URL

    static let currentName = "current"
    static let recordName = ".installed.json"
    static let temporarySuffix = ".qbtmp"

    var current: URL { root.appendingPathComponent(Self.currentName) }
    var versions: URL { root.appendingPathComponent("versions") }
    var downloads: URL { root.appendingPathComponent("downloads") }

    /// What a version directory holds, as installed.
    struct Record: Codable {
        let bundleVersion: String
        /// The pointer's entries of the files installed whole (not those brought up by deltas).
        let files: [PublishedFile]

        enum CodingKeys: String, CodingKey {
            case files
            case bundleVersion = "bundle_version"
        }
    }

    /// The version `current` leads to, when it is one this library installed.
    struct Held {
        let directory: URL
        let record: Record
        var version: String { record.bundleVersion }
    }

    /// The version `current` leads to, or nil (none yet, or not one this library installed).
    func held() -> Held? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path),
              !target.hasPrefix("/"), target.hasPrefix("versions/") else { return nil }
        let directory = root.appendingPathComponent(target, isDirectory: true)
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(Self.recordName)), data.count < 1 << 20,
              let record = try? JSONDecoder().decode(Record.self, from: data),
              target == "versions/\(record.bundleVersion)" || target.hasPrefix("versions/\(record.bundleVersion)+") else { return nil }
        return Held(directory: directory, record: record)
    }

    /// Makes the directories and takes the update lock (released when the returned value goes).
    func lock() throws -> UpdateLock {
        do {
            try FileManager.default.createDirectory(at: versions, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        } catch {
            throw BundleClientError(.local, "\(root.path): cannot make the directory (\((error as NSError).localizedDescription))")
        }
        var info = stat()
        if lstat(current.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK {
            throw BundleClientError(.local, "\(current.path) is not the link this library keeps there: move it away first")
        }
        return try UpdateLock(root.appendingPathComponent("lock"))
    }

    /// Removes what an update killed half-way left: versions being assembled, temporary links,
    /// and versions that are not current (the one before the last switch, or one renamed into
    /// place by an update killed before its switch). Downloads stay: the next one resumes them.
    func removeDebris() {
        let keep = (try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)).map { URL(fileURLWithPath: $0).lastPathComponent }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: versions.path)) ?? [] where name != keep {
            try? FileManager.default.removeItem(at: versions.appendingPathComponent(name))
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where name.hasSuffix(Self.temporarySuffix) {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// An empty directory to assemble `version` in.
    func staging(for version: String) throws -> URL {
        let url = versions.appendingPathComponent(".\(version)\(Self.temporarySuffix)", isDirectory: true)
        try? FileManager.default.removeItem(at: url)
        try local("make \(url.path)") { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false) }
        return url
    }

    /// Makes the assembled `staging` the current version: its files and record synced to disk,
    /// renamed to `versions/<version>`, `current` switched to it in one rename; then the versions
    /// before and the downloads are removed.
    func install(_ staging: URL, record: Record) throws {
        let data = try JSONEncoder().encode(record)
        try local("write the record of \(staging.path)") { try data.write(to: staging.appendingPathComponent(Self.recordName)) }
        for path in FileManager.default.subpaths(atPath: staging.path) ?? [] { Self.sync(staging.appendingPathComponent(path)) }
        // versions/<v>, or versions/<v>+N when a directory of that name is current (not one this
        // library recorded: its record is missing): the current one is never removed before the switch.
        var name = record.bundleVersion, n = 0
        while FileManager.default.fileExists(atPath: versions.appendingPathComponent(name).path) {
            n += 1
            name = "\(record.bundleVersion)+\(n)"
        }
        let final = versions.appendingPathComponent(name, isDirectory: true)
        try posix("rename \(staging.path) to \(final.path)") { rename(staging.path, final.path) }
        Self.sync(versions)
        let link = root.appendingPathComponent(Self.currentName + Self.temporarySuffix)
        try? FileManager.default.removeItem(at: link)
        try posix("make the link \(link.path)") { symlink("versions/\(name)", link.path) }
        try posix("switch \(current.path)") { rename(link.path, current.path) }
        Self.sync(root)
        removeDebris()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? [] {
            try? FileManager.default.removeItem(at: downloads.appendingPathComponent(name))
        }
    }

    /// fsync(2) of a file or directory (so that a version is on disk before it is switched to).
    static func sync(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private func local(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw BundleClientError(.local, "cannot \(what): \((error as NSError).localizedDescription)")
        }
    }

    private func posix(_ what: String, _ call: () -> Int32) throws {
        guard call() == 0 else { throw BundleClientError(.local, "cannot \(what): \(String(cString: strerror(errno)))") }
    }
}

/// An exclusive flock(2) on a file, so that two updates of one directory never run at once.
final class UpdateLock {
    private let descriptor: Int32

    init(_ url: URL) throws {
        descriptor = open(url.path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw BundleClientError(.local, "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw BundleClientError(.busy, "\(url.deletingLastPathComponent().path) is being updated by another process: try again later")
        }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

import Foundation
import QuakeCommon

/// The size and modification time (ns) of the files an export built upon, as the export
/// that made the current version left them: a file that still has both is the file its
/// manifest lists (rsync's quick check), so the next export need not hash it again before
/// building upon it (the three files are 226 MB at 440,000 events: hashing them took about
/// 4% of an incremental export's CPU). Any write to a file moves its modification time, and
/// a file whose stamp differs (or a workspace without stamps) is hashed as before. What a
/// stamp cannot see, a disk that changes bytes by itself, the hash still catches for files
/// that have sat on disk: stamps older than `trustedFor` are not used.
///
/// Kept beside the event cache (`.export-cache/published-files.txt`): a line naming the version
/// directory and when the stamps were taken (seconds since 1970), then one line per file:
/// path, bytes, modification time.
struct PublishedStamps {
    static let fileName = "published-files.txt"
    /// How long stamps are used after they were taken: a cron run builds on a version minutes old.
    static let trustedFor: TimeInterval = 24 * 3600

    /// The version directory (name) the files belong to.
    let version: String
    /// When the stamps were taken, seconds since 1970.
    let taken: Int64
    /// Per path: bytes and modification time in ns since 1970.
    let files: [String: Stamp]

    struct Stamp: Equatable {
        let bytes: Int64
        let modified: Int64
    }

    /// The stamps of `paths` in `directory` now, for version `version`; files that cannot be read are left out.
    static func take(_ paths: [String], in directory: URL, version: String) -> PublishedStamps {
        var files: [String: Stamp] = [:]
        for path in paths {
            if let stamp = stamp(of: directory.appendingPathComponent(path)) { files[path] = stamp }
        }
        return PublishedStamps(version: version, taken: Int64(Date().timeIntervalSince1970), files: files)
    }

    /// The stamp of the file at `url`, nil when it cannot be read.
    static func stamp(of url: URL) -> Stamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Stamp(bytes: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Those of `paths` in `directory` that still have the stamp taken when it was published,
    /// when that was less than `trustedFor` before `now`.
    func unchanged(_ paths: [String], in directory: URL, now: Date = Date()) -> Set<String> {
        let age = now.timeIntervalSince1970 - TimeInterval(taken)
        guard age >= 0 && age < Self.trustedFor else { return [] }
        return Set(paths.filter { path in files[path].map { Self.stamp(of: directory.appendingPathComponent(path)) == $0 } ?? false })
    }

    /// The stamps file under the output directory `out`.
    static func url(out: URL) -> URL {
        out.appendingPathComponent(EventCache.directoryName).appendingPathComponent(fileName)
    }

    /// Reads the stamps kept under `out` for version directory `version`; empty when there are none for it
    /// (or the file is not one this type wrote: over 64 KB, or not lines of three fields).
    static func read(out: URL, version: String) -> PublishedStamps {
        let none = PublishedStamps(version: version, taken: 0, files: [:])
        guard let size = stamp(of: url(out: out))?.bytes, size <= 65_536,
              let text = try? String(contentsOf: url(out: out), encoding: .utf8) else { return none }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = lines.first?.split(separator: "\t").map(String.init) ?? []
        guard first.count == 2, first[0] == version, let taken = Int64(first[1]) else { return none }
        lines.removeFirst()
        var files: [String: Stamp] = [:]
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let bytes = Int64(fields[1]), let modified = Int64(fields[2]) else { return none }
            files[fields[0]] = Stamp(bytes: bytes, modified: modified)
        }
        return PublishedStamps(version: version, taken: taken, files: files)
    }

    /// Replaces the stamps kept under `out` with these.
    func write(out: URL) throws {
        let lines = ["\(version)\t\(taken)"] + files.keys.sorted().map { "\($0)\t\(files[$0]!.bytes)\t\(files[$0]!.modified)" }
        try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: Self.url(out: out))
    }
}

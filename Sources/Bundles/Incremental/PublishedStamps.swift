import Foundation
import QuakeCommon

/// The size and modification time (ns) of the files an export built upon, as the export
/// that made the current version left them: a file that still has both is the file its
/// manifest lists (rsync's quick check), so the next export need not hash it again before
/// building upon it (the three files are 200 MB at 440,000 events: hashing them was a tenth
/// of an incremental export's CPU). Any write to a file moves its modification time, and
/// a file whose stamp differs (or a workspace without stamps) is hashed as before.
///
/// Kept beside the event cache (`.export-cache/published-files.txt`), naming the version
/// directory it was taken in; one line per file: path, bytes, modification time.
struct PublishedStamps: Equatable {
    static let fileName = "published-files.txt"

    /// The version directory (name) the files belong to.
    let version: String
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
        return PublishedStamps(version: version, files: files)
    }

    /// The stamp of the file at `url`, nil when it cannot be read.
    static func stamp(of url: URL) -> Stamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Stamp(bytes: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Those of `paths` in `directory` that still have the stamp taken when it was published.
    func unchanged(_ paths: [String], in directory: URL) -> Set<String> {
        Set(paths.filter { path in files[path].map { Self.stamp(of: directory.appendingPathComponent(path)) == $0 } ?? false })
    }

    /// The stamps file under the output directory `out`.
    static func url(out: URL) -> URL {
        out.appendingPathComponent(EventCache.directoryName).appendingPathComponent(fileName)
    }

    /// Reads the stamps kept under `out` for version directory `version`; empty when there are none for it.
    static func read(out: URL, version: String) -> PublishedStamps {
        let none = PublishedStamps(version: version, files: [:])
        guard let text = try? String(contentsOf: url(out: out), encoding: .utf8) else { return none }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.first == version else { return none }
        lines.removeFirst()
        var files: [String: Stamp] = [:]
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let bytes = Int64(fields[1]), let modified = Int64(fields[2]) else { return none }
            files[fields[0]] = Stamp(bytes: bytes, modified: modified)
        }
        return PublishedStamps(version: version, files: files)
    }

    /// Replaces the stamps kept under `out` with these.
    func write(out: URL) throws {
        let lines = [version] + files.keys.sorted().map { "\($0)\t\(files[$0]!.bytes)\t\(files[$0]!.modified)" }
        try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: Self.url(out: out))
    }
}

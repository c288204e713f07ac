import Foundation
import QuakeBundleKit
import QuakeCommon

/// A publication laid out from exported version directories as docs/publishing.md's design lays
/// one out, for the client tests until `quake-bake publish` is on main: `objects/<sha256 of the
/// stored bytes>.<ext>` (the app database and the rows deltas gzip-compressed), and
/// `current.json` naming the newest version's files (or a base's `quakes.sqlite` and
/// `quakes.mbtiles`) and, for each older version, the export's own step deltas that lead from it.
struct TestPublication {
    let root: URL

    init(at root: URL) throws {
        self.root = root
        try FileManager.default.createDirectory(at: root.appendingPathComponent("objects"), withIntermediateDirectories: true)
    }

    /// Publishes the last of `versions` (version directories, oldest first): its files, with
    /// `quakes.sqlite` and `quakes.mbtiles` those of `versions[base]` when given, and a delta
    /// chain from each version from `chainsFrom` (default: the base, or the first) on.
    @discardableResult
    func publish(_ versions: [URL], base: Int? = nil, chainsFrom: Int? = nil) throws -> PublishedPointer {
        let names = versions.map(ExportedVersions.version)
        let newest = versions.last!
        var files: [PublishedFile] = []
        for name in try Self.files(of: newest) where !name.hasPrefix("deltas/") {
            var from = newest
            var file: PublishedFile
            if let base, ["quakes.sqlite", "quakes.mbtiles"].contains(name) { from = versions[base] }
            file = try put(from.appendingPathComponent(name), name: name)
            if from != newest { file.bundleVersion = names[base!] }
            files.append(file)
        }
        var deltas: [PublishedDeltas] = []
        for start in (chainsFrom ?? base ?? 0)..<(versions.count - 1) {
            var steps: [PublishedFile] = []
            for step in start..<(versions.count - 1) {
                for ext in ["mbtiles", "sqlite"] {
                    let name = "deltas/\(names[step]).\(ext)"
                    var file = try put(versions[step + 1].appendingPathComponent(name), name: name)
                    file.baseVersion = names[step]
                    file.bundleVersion = names[step + 1]
                    steps.append(file)
                }
            }
            deltas.append(PublishedDeltas(baseVersion: names[start], files: steps))
        }
        let pointer = PublishedPointer(bundleVersion: names.last!, files: files, deltas: deltas)
        try write(pointer)
        return pointer
    }

    /// Writes `pointer` as `current.json`.
    func write(_ pointer: PublishedPointer) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(pointer).write(to: root.appendingPathComponent(PublishedPointer.key), options: .atomic)
    }

    /// The pointer as published now.
    func pointer() throws -> PublishedPointer {
        try JSONDecoder().decode(PublishedPointer.self, from: Data(contentsOf: root.appendingPathComponent(PublishedPointer.key)))
    }

    /// Stores the file at `url` as an immutable object named by its content (`.sqlite` files
    /// gzip-compressed) and returns its entry.
    func put(_ url: URL, name: String) throws -> PublishedFile {
        let content = try Data(contentsOf: url)
        let gzip = name.hasSuffix(".sqlite")
        let stored = gzip ? try Gzip.compress(content) : content
        let sha256 = SHA256.hex(stored)
        let ext = (name as NSString).lastPathComponent.split(separator: ".", maxSplits: 1).dropFirst().first.map { ".\($0)" } ?? ""
        let key = "objects/\(sha256)\(ext)\(gzip ? ".gz" : "")"
        try stored.write(to: root.appendingPathComponent(key))
        return PublishedFile(name: name, key: key, bytes: Int64(stored.count), sha256: sha256,
                             encoding: gzip ? "gzip" : nil, contentBytes: gzip ? Int64(content.count) : nil,
                             contentSHA256: gzip ? SHA256.hex(content) : nil)
    }

    /// Every file of a bundle directory, by its path in the bundle, sorted.
    static func files(of directory: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}

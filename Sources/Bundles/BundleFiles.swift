import Foundation
import QuakeBundleFormat
import QuakeCommon

/// The file list of a manifest: every file of the bundle directory but the manifest,
/// sorted by path, with its size and sha256.
enum BundleFiles {
    typealias File = (path: String, bytes: Int, sha256: String)

    /// The files of `directory`; `known` gives the sha256 of files already hashed (by path),
    /// the others are hashed here, on every core.
    static func list(_ directory: URL, known: [String: String]) throws -> [File] {
        let base = directory.standardizedFileURL.path + "/"
        var paths: [String] = []
        if let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                paths.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
            }
        }
        let sorted = paths.filter { $0 != BundleFileName.manifest && !$0.hasSuffix(AtomicFile.temporarySuffix) }.sorted()
        let unknown = sorted.filter { known[$0] == nil }
        let digests = Parallel.map(unknown.count) { i in
            Result { try SHA256.hex(fileAt: directory.appendingPathComponent(unknown[i])) }
        }
        var hashed = known
        for (path, digest) in zip(unknown, digests) { hashed[path] = try digest.get() }
        return try sorted.map { path in
            let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path)[.size] as? Int ?? 0
            return (path, size, hashed[path]!)
        }
    }

    /// Those of `paths` whose file in the bundle `directory` is the one its manifest lists (same
    /// size, same sha256): a file damaged or changed since it was published is not among them.
    /// Files in `unchanged` (see `PublishedStamps`) are not hashed again.
    static func matchingManifest(_ paths: [String], in directory: URL, unchanged: Set<String> = []) -> Set<String> {
        let listing = Manifest.listing(in: directory)
        return Set(paths.filter { path in
            hasListedSize(path, in: directory, listing: listing)
                && (unchanged.contains(path) || (try? SHA256.hex(fileAt: directory.appendingPathComponent(path))) == listing[path]?.sha256)
        })
    }

    /// Whether the file at `path` in `directory` is there with the size `listing` (its
    /// manifest's) gives it: the cheap half of `matchingManifest`.
    static func hasListedSize(_ path: String, in directory: URL, listing: [String: Manifest.Listed]) -> Bool {
        let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path))?[.size] as? Int
        return size != nil && size == listing[path]?.bytes
    }
}

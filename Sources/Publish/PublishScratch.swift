import Foundation
import QuakeCommon

/// The files publish keeps in `<workspace>/publish/`: gzip copies of app databases on their
/// way to the store (`travel/`, named by the source's sha256, so a file is compressed once),
/// the published style when it is rewritten, and per target the PMTiles object last
/// published there (`pmtiles/<target id>/`), which the next publish builds the new one from.
struct PublishScratch {
    let root: URL
    let targetID: String

    init(workspace: Workspace, target: S3Target) throws {
        root = workspace.publishDirectory
        let name = "\(target.endpoint?.absoluteString ?? "aws:\(target.region)") \(target.bucket) \(target.prefix)"
        targetID = String(FileDigests.of(Data(name.utf8)).sha256Hex.prefix(16))
        for directory in [travelDirectory, pmtilesDirectory] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    var travelDirectory: URL { root.appendingPathComponent("travel") }
    var pmtilesDirectory: URL { root.appendingPathComponent("pmtiles/\(targetID)") }

    /// The gzip copy of `source` (whose sha256 is `sha256`), made if not made yet.
    func gzipped(_ source: URL, sha256: String) throws -> URL {
        let url = travelDirectory.appendingPathComponent("\(sha256).gz")
        if !FileManager.default.fileExists(atPath: url.path) { try GzipFile.compress(source, to: url) }
        return url
    }

    /// The PMTiles object last published to this target with sha256 `sha256`, if kept here.
    func publishedPMTiles(_ sha256: String) -> URL? {
        let url = pmtilesDirectory.appendingPathComponent("\(sha256).pmtiles")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Where a PMTiles object being composed is written.
    func composedPMTiles() -> URL { pmtilesDirectory.appendingPathComponent("composed.pmtiles" + AtomicFile.temporarySuffix) }

    /// Keeps only `keep` (file names) in `directory`, and removes debris.
    func prune(_ directory: URL, keeping keep: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where !keep.contains(name) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}

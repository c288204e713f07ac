import Foundation
import QuakeBundleFormat
import QuakeCommon

/// What publish reads of a bundle's `manifest.json`: its version and every file it lists.
struct BundleManifest: Sendable {
    struct File: Sendable {
        let path: String
        let bytes: Int64
        let sha256: String
    }

    let directory: URL
    let version: String
    /// Every file the manifest lists (all but the manifest itself), by path order.
    let files: [File]

    /// The biggest manifest read (a real one is tens of KB).
    static let maximumBytes = 16 << 20

    /// Reads the manifest of the bundle in `directory`; checks that each file it lists is there with its size.
    init(directory: URL) throws {
        self.directory = directory
        let url = directory.appendingPathComponent(BundleFileName.manifest)
        let data: Data
        do {
            data = try InputFile.bytes(of: url, maxBytes: Self.maximumBytes, for: .configuration)
        } catch {
            throw QuakeBakeError("cannot read the bundle's manifest \(url.path): \(error.description)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              object["format"] as? String == "quake-bake bundle", let version = object["bundle_version"] as? String,
              !version.isEmpty, version.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != 0x2F }),
              let listed = object["files"] as? [[String: Any]] else {
            throw QuakeBakeError("\(url.path) is not a quake-bake bundle manifest (format, bundle_version, files)")
        }
        var files: [File] = []
        for entry in listed {
            guard let path = entry["path"] as? String, let bytes = (entry["bytes"] as? NSNumber)?.int64Value,
                  let sha256 = entry["sha256"] as? String, sha256.count == 64, Self.isSafe(path) else {
                throw QuakeBakeError("\(url.path) lists a file without a safe relative path, a size and a sha256: \(entry)")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(path).path))?[.size] as? Int64
            guard size == bytes else {
                throw QuakeBakeError("\(directory.appendingPathComponent(path).path) is missing or not the size the manifest gives (\(bytes) bytes)")
            }
            files.append(File(path: path, bytes: bytes, sha256: sha256))
        }
        self.version = version
        self.files = files
    }

    /// A relative path inside the bundle: no empty, `.` or `..` segment, no leading slash.
    private static func isSafe(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return !path.isEmpty && segments.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
            && path.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }

    /// The listed file at `path`.
    func file(_ path: String) -> File? { files.first { $0.path == path } }

    func url(_ path: String) -> URL { directory.appendingPathComponent(path) }
}

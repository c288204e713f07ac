import Foundation
import QuakeBundleFormat

/// The bundle `current` points at, as `status` shows it.
public struct CurrentBundle: Sendable, Codable, Equatable {
    /// The bundle version (a hash of content and options).
    public var version: String
    /// The version directory.
    public var directory: String
    /// Events in the bundle.
    public var events: Int
    /// Bytes of its files.
    public var bytes: Int
    /// The store's high-water mark it was made from.
    public var highWaterMark: String?
    /// Its recent layer (`--recent-days`): the quakes from `since` on, apart from the tiles.
    public var recent: Recent?
    /// Size-guard cuts and other warnings recorded in its manifest.
    public var warnings: Int
    /// When `current` was switched to it, and how long ago (seconds).
    public var publishedAt: String
    public var ageSeconds: Int

    /// A recent layer, as the manifest describes it.
    public struct Recent: Sendable, Codable, Equatable {
        public var since: String
        public var events: Int
    }

    /// Reads the current bundle under `out`; `nil` when there is none (or its manifest is unreadable).
    public static func read(out: URL) -> CurrentBundle? {
        let publisher = BundlePublisher(out: out)
        guard let directory = publisher.current(),
              let data = try? Data(contentsOf: directory.appendingPathComponent(BundleFileName.manifest)),
              let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let version = manifest["bundle_version"] as? String else { return nil }
        let selection = manifest["selection"] as? [String: Any]
        let store = manifest["store"] as? [String: Any]
        let files = manifest["files"] as? [[String: Any]] ?? []
        let recent = (manifest["recent"] as? [String: Any]).flatMap { r in
            (r["since"] as? String).map { Recent(since: $0, events: r["events"] as? Int ?? 0) }
        }
        let link = out.appendingPathComponent(BundlePublisher.currentName)
        var info = stat()
        let published = lstat(link.path, &info) == 0 ? Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)) : Date()
        return CurrentBundle(version: version, directory: directory.path, events: selection?["events"] as? Int ?? 0,
                             bytes: files.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) },
                             highWaterMark: store?["high_water_mark_time"] as? String, recent: recent,
                             warnings: (manifest["warnings"] as? [Any])?.count ?? 0,
                             publishedAt: ISO8601DateFormatter().string(from: published),
                             ageSeconds: max(0, Int(Date().timeIntervalSince(published))))
    }
}

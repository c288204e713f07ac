import Foundation

/// Paths to the real USGS samples shipped in the project's `data/` folder.
public enum TestData {
    /// The project root (found from this file's location).
    public static let projectRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `data/usgs/<name>`.
    public static func usgs(_ name: String) -> URL {
        projectRoot.appendingPathComponent("data/usgs").appendingPathComponent(name)
    }

    /// `data/detail`: recorded USGS detail answers (`events/`) and product files (`product/`).
    public static let details = projectRoot.appendingPathComponent("data/detail")

    /// The recorded detail answers of `data/detail/events`, as the service sent them.
    public static var recordedDetails: [URL] {
        let directory = details.appendingPathComponent("events")
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasSuffix(".geojson.gz") }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// `data/history/<name>`.
    public static func history(_ name: String) -> URL {
        projectRoot.appendingPathComponent("data/history").appendingPathComponent(name)
    }

    /// Every sample in `data/usgs`.
    public static var allSamples: [URL] {
        let directory = projectRoot.appendingPathComponent("data/usgs")
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// `../shared/data` beside the project, for benchmarks and long suites; `nil` when absent.
    public static var sharedData: URL? {
        let url = projectRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}

/// A fresh temporary directory, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "quake-bake-test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    public func path(_ component: String) -> URL { url.appendingPathComponent(component) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

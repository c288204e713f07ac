import Foundation
import QuakeCatalog
import QuakeCommon

/// Writes events as the FDSN service would serve them: FeatureCollection pages.
public enum FeatureCollectionPages {
    /// Writes `events` as gzip FeatureCollection pages of at most `pageSize` events
    /// (`page-00001.geojson.gz`, …) into `directory`; returns the files in order.
    public static func write(_ events: some Sequence<QuakeEvent>, pageSize: Int, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var files: [URL] = []
        var page: [QuakeEvent] = []
        page.reserveCapacity(pageSize)
        func flush() throws {
            let url = directory.appendingPathComponent(String(format: "page-%05d.geojson.gz", files.count + 1))
            let text = GeoJSONWriter.collection(page, metadata: PageMetadata(status: 200, count: page.count))
            try Gzip.compress(Data(text.utf8), level: 1).write(to: url)
            files.append(url)
            page.removeAll(keepingCapacity: true)
        }
        for event in events {
            page.append(event)
            if page.count == pageSize { try flush() }
        }
        if !page.isEmpty { try flush() }
        return files
    }

    /// Writes `events` as one plain GeoJSON FeatureCollection file (for tools such as ogr2ogr).
    public static func writeSingleFile(_ events: some Sequence<QuakeEvent>, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8))
        var chunk = ""
        var first = true
        for event in events {
            chunk += (first ? "" : ",\n") + GeoJSONWriter.feature(event)
            first = false
            if chunk.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data((chunk + "\n]}\n").utf8))
    }
}

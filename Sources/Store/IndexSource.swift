import Foundation
import QuakeCommon

/// Something to index: a ComCat file (GeoJSON FeatureCollection or Feature, or
/// ComCat CSV, gzip or plain) or a page of the fetch archive.
public struct IndexSource: Sendable, Hashable {
    /// How the source is named in messages, `sources` and `rejects`.
    public let name: String
    /// The file to read.
    public let file: URL
    /// `file` or `page`, as recorded in `sources.kind`.
    public let kind: String
    /// SHA-256 of the body (decompressed) when known in advance; a source whose
    /// SHA-256 is already in `sources` is skipped without being read.
    public let sha256: String?
    /// Events the source holds, when known in advance (for progress).
    public let expectedEvents: Int?
    /// The most the file may hold, and its gzip inflate to (see `InputFile`).
    public var maxBytes = InputFile.defaultMaxBytes

    /// A ComCat file given by the user, read within `maxBytes`.
    public static func file(_ url: URL, maxBytes: Int = InputFile.defaultMaxBytes) -> IndexSource {
        var source = IndexSource(name: url.path, file: url, kind: "file", sha256: nil, expectedEvents: nil)
        source.maxBytes = maxBytes
        return source
    }

    /// A page of the fetch archive: `sequence` is its arrival order, `sha256` the SHA-256 of its body.
    public static func archivePage(sequence: Int64, file: URL, sha256: String, requestURL: String, eventCount: Int) -> IndexSource {
        IndexSource(name: "archive page \(sequence) (\(requestURL))", file: file, kind: "page", sha256: sha256,
                    expectedEvents: eventCount)
    }
}

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
    /// SHA-256 is already in `sources` is skipped without being read (see `streamedFrom`).
    public let sha256: String?
    /// Events the source holds, when known in advance (for progress).
    public let expectedEvents: Int?
    /// The most the file may hold, and its gzip inflate to (see `InputFile`).
    public var maxBytes = InputFile.defaultMaxBytes
    /// From this size on (as stored), a file is read a piece at a time (`CatalogStream`) and
    /// known by the SHA-256 of its bytes as stored; a smaller one is read whole and known by
    /// the SHA-256 of its body. A pipe longer than this is copied to a scratch file first (see
    /// `InputFile.readPipe`), then read as a big file is.
    public var streamedFrom = 8 << 20

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

import Foundation

/// `current.json`: the one object of a publication that changes. `quake-bake publish` writes
/// it last, after every object it names is in the store and verified; `BundleClient` reads it
/// first. Every other key under the publication's prefix is immutable (named by its content),
/// so a reader that reads the pointer at any moment finds every object it names.
///
/// A version's files are listed whole, except that the two files every export changes, the
/// app database and the MBTiles, may be an older version's (a *base*, marked by
/// ``PublishedFile/bundleVersion``) that the chain of deltas in ``deltas`` brings up to
/// ``bundleVersion``: a new publish then uploads one small delta, not the whole files.
public struct PublishedPointer: Codable, Sendable, Equatable {
    /// The pointer format this library reads and writes.
    public static let currentFormat = 1
    /// The pointer's key under the publication's prefix.
    public static let key = "current.json"

    /// The pointer format (``currentFormat``); a reader refuses one it does not know.
    public var format: Int
    /// The version a reader holds once it has every file (the bundle's `manifest.json` `bundle_version`).
    public var bundleVersion: String
    /// Everything an app or a web client needs for ``bundleVersion``: tiles, PMTiles, app
    /// database, style, GeoJSON zooms, recent layer, timeline, manifest.
    public var files: [PublishedFile]
    /// For each older version an app may hold, the deltas that bring it to ``bundleVersion``.
    public var deltas: [PublishedDeltas]

    public init(bundleVersion: String, files: [PublishedFile], deltas: [PublishedDeltas]) {
        self.format = Self.currentFormat
        self.bundleVersion = bundleVersion
        self.files = files
        self.deltas = deltas
    }

    enum CodingKeys: String, CodingKey {
        case format, files, deltas
        case bundleVersion = "bundle_version"
    }
}

/// One immutable object of a publication.
public struct PublishedFile: Codable, Sendable, Equatable {
    /// The file's path in a bundle directory: `quakes.pmtiles`, `geojson/z3.geojson.gz`,
    /// `deltas/<base version>.sqlite`.
    public var name: String
    /// The object's key, relative to the publication's prefix (never absolute, never `..`).
    public var key: String
    /// The object's size as stored.
    public var bytes: Int64
    /// The sha256 of the object as stored, in lowercase hex.
    public var sha256: String
    /// `"gzip"` when the object is the file gzip-compressed (the app database travels so);
    /// `nil` when it is the file itself.
    public var encoding: String?
    /// With an ``encoding``: the file's size once decoded.
    public var contentBytes: Int64?
    /// With an ``encoding``: the sha256 of the file once decoded.
    public var contentSHA256: String?
    /// A base file: the older version whose file this is (the pointer's ``PublishedPointer/deltas``
    /// lead from it). A delta: the version it leads to. `nil`: the pointer's own version.
    public var bundleVersion: String?
    /// A delta: the version it applies to.
    public var baseVersion: String?

    public init(name: String, key: String, bytes: Int64, sha256: String, encoding: String? = nil,
                contentBytes: Int64? = nil, contentSHA256: String? = nil,
                bundleVersion: String? = nil, baseVersion: String? = nil) {
        self.name = name
        self.key = key
        self.bytes = bytes
        self.sha256 = sha256
        self.encoding = encoding
        self.contentBytes = contentBytes
        self.contentSHA256 = contentSHA256
        self.bundleVersion = bundleVersion
        self.baseVersion = baseVersion
    }

    enum CodingKeys: String, CodingKey {
        case name, key, bytes, sha256, encoding
        case contentBytes = "content_bytes"
        case contentSHA256 = "content_sha256"
        case bundleVersion = "bundle_version"
        case baseVersion = "base_version"
    }
}

/// The way from one older version to the pointer's: its delta files, step by step, in the
/// order they apply (each step's ``PublishedFile/baseVersion`` is the version the one before
/// led to).
public struct PublishedDeltas: Codable, Sendable, Equatable {
    /// The version an app holds before the first step.
    public var baseVersion: String
    /// The steps' files (for each step its `.mbtiles` and its `.sqlite`), in order.
    public var files: [PublishedFile]

    public init(baseVersion: String, files: [PublishedFile]) {
        self.baseVersion = baseVersion
        self.files = files
    }

    enum CodingKeys: String, CodingKey {
        case files
        case baseVersion = "base_version"
    }
}

import Foundation
import QuakeCommon

/// What an export did.
public struct ExportSummary: Sendable {
    /// False when the store and options had not changed since the current bundle:
    /// no new version was made (the tile and byte figures are then zero).
    public let changed: Bool
    /// The bundle version: a hash of the store content, its high-water mark and the options.
    public let bundleVersion: String
    /// The current version directory after the export.
    public let directory: URL
    /// Selected events.
    public let events: Int
    /// Store rows read in full: every selected row, or after an incremental read (see
    /// `ExportOptions.reuseTiles`) only the new and changed ones.
    public let rowsRead: Int
    /// The store's high-water mark (newest `updated`, ms).
    public let highWaterMark: Int64
    /// Tiles in the bundle.
    public let tiles: Int
    /// Tiles encoded by this run (the rest were reused from the previous bundle).
    public let encodedTiles: Int
    /// Tiles taken unchanged from the previous bundle.
    public let reusedTiles: Int
    /// GeoJSON zooms copied from the previous bundle, their points unchanged (the rest were written).
    public let copiedGeoJSONZooms: [Int]
    /// Bytes of all files of the bundle.
    public let bytes: Int
    /// Figures per zoom.
    public let zooms: [ZoomSummary]
    /// Size-guard cuts and other things a person should know.
    public let warnings: [String]
    /// Versions removed by `--keep`.
    public let removedVersions: [String]
    /// Wall time of the export.
    public let seconds: Double

    /// One line for the log.
    public var line: String {
        guard changed else {
            return "nothing changed since bundle \(directory.lastPathComponent) (\(Format.count(events, "event"))); no new version"
        }
        let zoomRange = zooms.isEmpty ? "" : "z\(zooms.first!.zoom)–\(zooms.last!.zoom), "
        return "exported \(Format.count(events, "event")) to \(directory.lastPathComponent): \(Format.count(tiles, "tile")) "
            + "(\(Format.count(encodedTiles)) encoded, \(Format.count(reusedTiles)) reused), \(zoomRange)\(Format.bytes(bytes)), "
            + "\(Format.count(warnings.count, "warning")), \(String(format: "%.1f", seconds)) s"
    }
}

/// Figures of one zoom of a bundle.
public struct ZoomSummary: Sendable, Equatable {
    public let zoom: Int
    /// Tiles written at this zoom.
    public let tiles: Int
    /// Events shown at this zoom.
    public let events: Int
    /// Cluster features.
    public let clusters: Int
    /// Events the clusters stand for.
    public let clusteredEvents: Int
    /// The largest compressed tile.
    public let largestTileBytes: Int
}

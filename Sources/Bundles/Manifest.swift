import Foundation
import QuakeBundleFormat
import QuakeCatalog
import QuakeCommon

/// `manifest.json`: what a bundle is and holds. It carries no wall-clock time, so
/// the same store content and options give the same bytes.
struct Manifest {
    /// The `format` member: how pruning recognises a version directory as ours.
    static let format = "quake-bake bundle"
    /// 2: the app database's rowids are the events' feature ids (1: ranks in id order).
    /// 3: the app database's `info` names its `bundle_version`, and deltas the versions they
    /// join (`delta_info`). 4: quakes' details (`details/<id>.json`, the app database's `details`
    /// table). Part of the bundle version: the first export after an upgrade that changes it
    /// makes a new version even when the store has not changed.
    static let formatVersion = 4

    let bundleVersion: String
    let highWaterMark: Int64
    let contentDigest: String
    let options: ExportOptions
    let events: Int
    /// Events of the selection with details.
    let details: Int
    let bounds: (Double, Double, Double, Double)
    /// First and last origin time of the selection (`nil` when it is empty).
    let timeSpan: (Int64, Int64)?
    let zooms: [ZoomSummary]
    let geoJSONZooms: [Int]
    /// The recent layer, when the events are split (`--recent-days`).
    let recent: RecentLayer?
    let files: [BundleFiles.File]
    /// Deltas from older versions (`deltas/`), newest base first.
    let deltas: [DeltaWriter.Delta]
    let warnings: [String]

    var json: JSON {
        let (w, s, e, n) = bounds
        var members: [(String, JSON)] = [
            ("format", .string(Self.format)),
            ("format_version", .int(Self.formatVersion)),
            ("bundle_version", .string(bundleVersion)),
            ("store", .object([
                ("high_water_mark", .int(highWaterMark)),
                ("high_water_mark_time", .string(ISOTime.format(milliseconds: highWaterMark))),
                ("content_digest", .string(contentDigest)),
            ])),
            ("selection", .object([
                ("events", .int(events)),
                ("details", .int(details)),
                ("bounds", .array([w, s, e, n].map { .double($0) })),
                ("first_time", timeSpan.map { .string(ISOTime.format(milliseconds: $0.0)) } ?? .null),
                ("last_time", timeSpan.map { .string(ISOTime.format(milliseconds: $0.1)) } ?? .null),
            ])),
            ("options", options.contentJSON),

            ("zooms", .array(zooms.map { z in
                .object([("zoom", .int(z.zoom)), ("tiles", .int(z.tiles)), ("events", .int(z.events)), ("clusters", .int(z.clusters)),
                         ("clustered_events", .int(z.clusteredEvents)), ("largest_tile_bytes", .int(z.largestTileBytes)),
                         ("geojson", .bool(geoJSONZooms.contains(z.zoom)))])
            })),
            ("files", .array(files.map(Self.fileJSON))),
            ("deltas", .array(deltas.map { delta in
                .object([("base", .string(delta.base)),
                         ("files", .array([BundleFileName.tilesDelta(from: delta.base), BundleFileName.rowsDelta(from: delta.base)].compactMap { path in
                             files.first { $0.path == path }.map(Self.fileJSON)
                         })),
                         ("changed_files", .array(delta.changedFiles.map(JSON.string))),
                         ("removed_files", .array(delta.removedFiles.map(JSON.string)))])
            })),
            ("warnings", .array(warnings.map(JSON.string))),
        ]
        if let recent { members.insert(("recent", recent.json), at: 6) }  // after the options
        return .object(members)
    }

    private static func fileJSON(_ file: BundleFiles.File) -> JSON {
        .object([("path", .string(file.path)), ("bytes", .int(file.bytes)), ("sha256", .string(file.sha256))])
    }

    /// A file as a manifest lists it.
    struct Listed {
        let bytes: Int
        let sha256: String
    }

    /// The files the manifest in `directory` lists, by path; empty when unreadable.
    static func listing(in directory: URL) -> [String: Listed] {
        var files: [String: Listed] = [:]
        for case let file as [String: Any] in member("files", in: directory) as? [Any] ?? [] {
            if let path = file["path"] as? String, let bytes = file["bytes"] as? Int, let sha256 = file["sha256"] as? String {
                files[path] = Listed(bytes: bytes, sha256: sha256)
            }
        }
        return files
    }

    /// The files (path → sha256) the manifest in `directory` lists; empty when unreadable.
    static func files(in directory: URL) -> [String: String] {
        listing(in: directory).mapValues(\.sha256)
    }

    /// The `bundle_version` of the manifest in `directory`, if readable.
    static func bundleVersion(in directory: URL) -> String? {
        member("bundle_version", in: directory) as? String
    }

    /// The store's high-water mark recorded in the manifest of the bundle version in `directory`, if readable.
    static func highWaterMark(in directory: URL) -> Int64? {
        (member("store", in: directory) as? [String: Any])?["high_water_mark"].flatMap { ($0 as? NSNumber)?.int64Value }
    }

    private static func member(_ name: String, in directory: URL) -> Any? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(BundleFileName.manifest)),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object[name]
    }
}

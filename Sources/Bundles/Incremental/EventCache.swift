import QuakeCatalog
import Foundation
import Logging
import QuakeCommon
import QuakeTiles

/// The export's event cache: the selection as the previous export read it (event table,
/// row keys), each event's minzoom in that export, and the events whose feature id a
/// collision had moved, so the next export reads only the store rows that changed and
/// encodes only the tiles whose content may have changed.
///
/// It is not part of any bundle (its event order depends on the history of exports, and
/// apps have no use for it): it lives in `<out>/.export-cache/events.bin`, names the
/// version directory it was made with, and is used only while that version is current.
/// A `BinaryWriter` file: magic, version name, selection digest, tile options digest,
/// event table, event keys, other row keys (sorted), minzoom per event, moved event keys.
struct EventCache {
    static let directoryName = ".export-cache"
    static let fileName = "events.bin"
    private static let magic = UInt64(littleEndian: Array("QBEVCAC3".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })

    /// The version directory (name) the cache belongs to.
    let version: String
    /// Digest of the selection and attributes the table was read with.
    let selectionDigest: UInt64
    /// `ExportState.optionsDigest` of the export that thinned the events to `minZoom`.
    let tilesDigest: UInt64
    var snapshot: StoreSnapshot
    /// Each event's minzoom in that export.
    var minZoom: [UInt8]
    /// Keys of the events whose feature id was moved by a collision in that export.
    let movedKeys: [UInt64]

    /// The cache file under the output directory `out`.
    static func url(out: URL) -> URL {
        out.appendingPathComponent(directoryName).appendingPathComponent(fileName)
    }

    /// The digest of what decides the table's content: the selection and the attributes.
    static func selectionDigest(_ options: ExportOptions) -> UInt64 {
        let text = JSON.object([("selection", options.contentJSON["selection"] ?? .null),
                                ("attributes", options.contentJSON["attributes"] ?? .null)]).text
        return SipHasher.hash(Array(text.utf8))
    }

    /// The cache of version directory `version`, when present, whole, and made with `options`'
    /// selection; its table's columns in `spill`. A cache that is there but cannot be read is
    /// a warning on `logger` (the export then reads the whole store: it must not go unseen).
    static func read(out: URL, version: String, options: ExportOptions, spill: SpillFile?, logger: Logger) -> EventCache? {
        guard let input = BinaryReader(url: url(out: out)) else { return nil }
        do {
            guard try input.get(UInt64.self) == magic,
                  String(decoding: try input.get([UInt8].self, limit: 256), as: UTF8.self) == version,
                  try input.get(UInt64.self) == selectionDigest(options) else { return nil }
            let tilesDigest = try input.get(UInt64.self)
            let table = try EventTable(reading: input, attributes: options.attributes, spill: spill)
            let eventKeys = try input.get(SpillableArray<UInt64>.self, spill: spill)
            let otherKeys = try input.get([UInt64].self)
            let minZoom = try input.get([UInt8].self)
            let movedKeys = try input.get([UInt64].self)
            try input.finish()
            guard eventKeys.count == table.count, minZoom.count == table.count else {
                throw BinaryFileError("its event keys or minzooms are not one per event")
            }
            return EventCache(version: version, selectionDigest: selectionDigest(options), tilesDigest: tilesDigest,
                              snapshot: StoreSnapshot(table: table, eventKeys: eventKeys, otherKeys: otherKeys),
                              minZoom: minZoom, movedKeys: movedKeys)
        } catch {
            logger.warning("\(url(out: out).path) could not be read (\(error)): this export reads the whole store")
            return nil
        }
    }

    /// Writes the cache of version directory `version` to `url`.
    static func write(version: String, options: ExportOptions, snapshot: StoreSnapshot, minZoom: [UInt8],
                      movedKeys: [UInt64], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var out = try BinaryWriter(url: url)
        do {
            try out.put(magic)
            try out.put(Array(version.utf8))
            try out.put(selectionDigest(options))
            try out.put(ExportState.optionsDigest(options))
            try snapshot.table.write(to: &out)
            try out.put(snapshot.eventKeys)
            try out.put(snapshot.otherKeys)
            try out.put(minZoom)
            try out.put(movedKeys)
            try out.finish()
        } catch {
            out.abandon()
            throw error
        }
    }
}

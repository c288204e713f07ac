import QuakeCatalog
import Foundation
import QuakeBundleFormat
import QuakeCommon
import QuakeTiles

/// Writes a PMTiles v3 archive directly (protomaps/PMTiles spec v3):
///
/// ```
/// header (127 bytes) | root directory | metadata | leaf directories | tile data
/// ```
/// Entries are sorted by tile id (Hilbert order per zoom), identical tiles are
/// stored once (later ones point at the first copy; runs of consecutive ids with
/// the same bytes become one entry with a run length), tile data is written in
/// tile-id order (clustered). Directories and metadata are gzip-compressed like
/// the tiles. The root directory plus header fit in the first 16,384 bytes;
/// when all entries do not fit, they go into leaf directories (4,096 entries
/// each, doubled until the root fits).
///
/// A directory must not be empty (spec 3.1), so an archive without tiles (an empty
/// selection) holds one empty vector tile (no layers) at zoom `minZoom`, column and row 0.
enum PMTilesWriter {
    struct Header {
        var minZoom: Int
        var maxZoom: Int
        /// west, south, east, north in degrees.
        var bounds: (Double, Double, Double, Double)
        var center: (longitude: Double, latitude: Double, zoom: Int)
    }

    private typealias Entry = PMTilesDirectory.Entry

    /// For each record, the record whose bytes the archive stores for it: among records with
    /// identical bytes, the one with the smallest tile id. Found by sorting rather than with a
    /// dictionary of hashes, which at 200,000 tiles costs some 13 MB at the export's memory peak.
    private static func storedCopies(_ records: [TileRecord], ids: [UInt64]) -> [Int32] {
        let byContent = records.indices.sorted { i, j in
            let x = records[i].dataHash, y = records[j].dataHash
            if x.a != y.a { return x.a < y.a }
            if x.b != y.b { return x.b < y.b }
            return ids[i] < ids[j]
        }
        var stored = [Int32](repeating: 0, count: records.count)
        var first = 0
        for (position, index) in byContent.enumerated() {
            if position == 0 || records[byContent[position - 1]].dataHash != records[index].dataHash { first = index }
            stored[index] = Int32(first)
        }
        return stored
    }

    /// Writes the archive; returns, per record (same order as `records`), the absolute file offset of its bytes.
    static func write(records: [TileRecord], data: TileData, metadata: JSON, header: Header, to url: URL) throws -> [UInt64] {
        let ids = records.map(\.key.pmtilesID)
        let order = records.indices.sorted { ids[$0] < ids[$1] }
        let stored = storedCopies(records, ids: ids)
        var unique: [Int] = []
        var dataLength: UInt64 = 0
        var relative = [UInt64](repeating: 0, count: records.count)
        var entries: [Entry] = []
        for index in order {
            let record = records[index]
            let offset: UInt64
            if stored[index] == index {
                offset = dataLength
                unique.append(index)
                dataLength += UInt64(record.length)
            } else {
                offset = relative[Int(stored[index])]  // its stored copy has a smaller tile id: placed already
            }
            relative[index] = offset
            if var last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == ids[index] {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(tileID: ids[index], offset: offset, length: record.length, runLength: 1))
            }
        }
        var placeholder: [UInt8] = []
        if records.isEmpty {
            placeholder = try Gzip.compress(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
            entries = [Entry(tileID: TileKey(z: header.minZoom, x: 0, y: 0).pmtilesID, offset: 0, length: UInt32(placeholder.count), runLength: 1)]
            dataLength = UInt64(placeholder.count)
        }
        let (root, leaves) = try PMTilesDirectory.build(entries, compress: Gzip.compress(array:))
        let metadataBytes = try Array(metadata.text.utf8).withUnsafeBytes { try Gzip.compress(bytes: $0) }

        var head = PMTilesHeader()
        head.rootLength = UInt64(root.count)
        head.metadataOffset = head.rootOffset + head.rootLength
        head.metadataLength = UInt64(metadataBytes.count)
        head.leavesOffset = head.metadataOffset + head.metadataLength
        head.leavesLength = UInt64(leaves.count)
        head.tileDataOffset = head.leavesOffset + head.leavesLength
        head.tileDataLength = dataLength
        head.addressedTiles = UInt64(records.isEmpty ? 1 : records.count)
        head.tileEntries = UInt64(entries.count)
        head.tileContents = UInt64(records.isEmpty ? 1 : unique.count)
        head.minZoom = UInt8(header.minZoom)
        head.maxZoom = UInt8(header.maxZoom)
        let (west, south, east, north) = header.bounds
        head.bounds = (PMTilesHeader.e7(west), PMTilesHeader.e7(south), PMTilesHeader.e7(east), PMTilesHeader.e7(north))
        head.centerZoom = UInt8(header.center.zoom)
        head.center = (PMTilesHeader.e7(header.center.longitude), PMTilesHeader.e7(header.center.latitude))
        let tileDataOffset = head.tileDataOffset

        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw QuakeBakeError("cannot create \(url.path)") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: head.bytes + root + metadataBytes + leaves + placeholder)
        try data.copy(unique.lazy.map { records[$0] }, to: handle.fileDescriptor)
        try handle.synchronize()
        return relative.map { $0 + tileDataOffset }
    }
}

import QuakeCatalog
import Foundation
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

    private struct Entry {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

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
        let (root, leaves) = try directories(entries)
        let metadataBytes = try Array(metadata.text.utf8).withUnsafeBytes { try Gzip.compress(bytes: $0) }

        let rootOffset: UInt64 = 127
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataBytes.count)
        let tileDataOffset = leavesOffset + UInt64(leaves.count)
        var head = [UInt8]()
        head.reserveCapacity(127)
        head += Array("PMTiles".utf8)
        head.append(3)
        for value in [rootOffset, UInt64(root.count), metadataOffset, UInt64(metadataBytes.count), leavesOffset, UInt64(leaves.count),
                      tileDataOffset, dataLength, UInt64(records.isEmpty ? 1 : records.count), UInt64(entries.count),
                      UInt64(records.isEmpty ? 1 : unique.count)] {
            withUnsafeBytes(of: value.littleEndian) { head += $0 }
        }
        head += [1, 2, 2, 1]  // clustered, internal compression gzip, tile compression gzip, tile type MVT
        head += [UInt8(header.minZoom), UInt8(header.maxZoom)]
        let (west, south, east, north) = header.bounds
        for degrees in [west, south, east, north] { appendE7(degrees, to: &head) }
        head.append(UInt8(header.center.zoom))
        appendE7(header.center.longitude, to: &head)
        appendE7(header.center.latitude, to: &head)
        precondition(head.count == 127)

        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw QuakeBakeError("cannot create \(url.path)") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: head + root + metadataBytes + leaves + placeholder)
        try data.copy(unique.lazy.map { records[$0] }, to: handle.fileDescriptor)
        try handle.synchronize()
        return relative.map { $0 + tileDataOffset }
    }

    /// The compressed root directory and leaf directories.
    private static func directories(_ entries: [Entry]) throws -> ([UInt8], [UInt8]) {
        let limit = 16_384 - 127
        let all = try serialize(entries[...])
        if all.count <= limit { return (all, []) }
        var leafSize = 4096
        while true {
            var rootEntries: [Entry] = []
            var leaves: [UInt8] = []
            var start = 0
            while start < entries.count {
                let leaf = try serialize(entries[start..<min(start + leafSize, entries.count)])
                rootEntries.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = try serialize(rootEntries[...])
            if root.count <= limit { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// One directory: count, tile-id deltas, run lengths, lengths, offsets (+1, or 0 when contiguous), gzip.
    private static func serialize(_ entries: ArraySlice<Entry>) throws -> [UInt8] {
        var out = [UInt8]()
        func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 { out.append(UInt8(truncatingIfNeeded: v) | 0x80); v >>= 7 }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var lastID: UInt64 = 0
        for e in entries { varint(e.tileID - lastID); lastID = e.tileID }
        for e in entries { varint(UInt64(e.runLength)) }
        for e in entries { varint(UInt64(e.length)) }
        var previous: Entry?
        for e in entries {
            if let p = previous, e.offset == p.offset + UInt64(p.length) { varint(0) } else { varint(e.offset + 1) }
            previous = e
        }
        return try out.withUnsafeBytes { try Gzip.compress(bytes: $0) }
    }

    private static func appendE7(_ degrees: Double, to bytes: inout [UInt8]) {
        let value = Int32((degrees * 10_000_000).rounded())
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}

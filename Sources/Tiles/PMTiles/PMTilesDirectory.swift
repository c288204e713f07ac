import Foundation
import QuakeCommon

/// PMTiles v3 directories: entries sorted by tile id, each `run` consecutive ids sharing
/// `length` bytes at `offset` in the tile data (a leaf pointer when `run` is 0: `offset`
/// and `length` then name a leaf directory in the leaf section). Serialised as the spec
/// says (count, tile-id deltas, run lengths, lengths, offsets + 1 or 0 when contiguous),
/// gzip-compressed.
public enum PMTilesDirectory {
    public struct Entry: Sendable, Equatable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32

        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }

    /// The root directory and the leaf directories for `entries`: the whole list in the root
    /// when it fits beside the header in 16,384 bytes, else leaves of 4,096 entries (doubled
    /// until the root fits).
    public static func build(_ entries: [Entry]) throws -> (root: [UInt8], leaves: [UInt8]) {
        let limit = PMTilesHeader.rootLimit - PMTilesHeader.size
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

    /// One directory's bytes, gzip-compressed.
    public static func serialize(_ entries: ArraySlice<Entry>) throws -> [UInt8] {
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

    /// A malformed directory.
    public struct Damage: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads one directory (gzip-compressed, at most `maxEntries` entries).
    public static func parse(_ compressed: Data, maxEntries: Int = 10_000_000) throws -> [Entry] {
        let bytes = [UInt8](try Gzip.decompress(compressed, limit: 256 << 20))
        var at = 0
        func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard at < bytes.count, shift < 64 else { throw Damage(description: "a PMTiles directory ends inside a number") }
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = Int(clamping: try varint())
        guard count <= maxEntries, count <= bytes.count else { throw Damage(description: "a PMTiles directory claims \(count) entries") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var id: UInt64 = 0
        for i in 0..<count { id = id &+ (try varint()); entries[i].tileID = id }
        for i in 0..<count { entries[i].runLength = UInt32(clamping: try varint()) }
        for i in 0..<count { entries[i].length = UInt32(clamping: try varint()) }
        for i in 0..<count {
            let value = try varint()
            if value == 0 {
                guard i > 0 else { throw Damage(description: "a PMTiles directory's first offset is relative") }
                entries[i].offset = entries[i - 1].offset + UInt64(entries[i - 1].length)
            } else {
                entries[i].offset = value - 1
            }
        }
        return entries
    }
}

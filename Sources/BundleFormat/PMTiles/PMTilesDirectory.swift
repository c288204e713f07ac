/// PMTiles v3 directories: entries sorted by tile id (``PMTilesTileID``), each `run`
/// consecutive ids sharing `length` bytes at `offset` in the tile data (a leaf pointer when
/// `run` is 0: `offset` and `length` then name a leaf directory in the leaf section).
/// Serialised as the spec says: count, tile-id deltas, run lengths, lengths, offsets + 1 or 0
/// when contiguous, each a varint.
///
/// A directory is stored compressed (the header's `internalCompression`; ours are gzip), and
/// this module does not compress: it takes no library at all, because the app library
/// (QuakeBundleKit, Foundation and SQLite only, its own inflater) takes it too. The caller
/// hands the compression in (`compress`, `decompress`: the pipeline's `Gzip`, on zlib and
/// libdeflate).
public enum PMTilesDirectory {
    /// One entry: a run of tiles, or (``runLength`` 0) a leaf directory.
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

    /// The root directory and the leaf directories for `entries`, each compressed by
    /// `compress`: the whole list in the root when it fits beside the header in
    /// ``PMTilesHeader/rootLimit`` bytes, else leaves of 4,096 entries (doubled until the root fits).
    public static func build(_ entries: [Entry], compress: ([UInt8]) throws -> [UInt8]) throws -> (root: [UInt8], leaves: [UInt8]) {
        let limit = PMTilesHeader.rootLimit - PMTilesHeader.size
        let all = try compress(encode(entries[...]))
        if all.count <= limit { return (all, []) }
        var leafSize = 4096
        while true {
            var rootEntries: [Entry] = []
            var leaves: [UInt8] = []
            var start = 0
            while start < entries.count {
                let leaf = try compress(encode(entries[start..<min(start + leafSize, entries.count)]))
                rootEntries.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = try compress(encode(rootEntries[...]))
            if root.count <= limit { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// One directory's bytes, uncompressed.
    public static func encode(_ entries: ArraySlice<Entry>) -> [UInt8] {
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
        return out
    }

    /// A malformed archive: a directory that cannot be read, a section or a tile outside the file.
    public struct Damage: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Reads one directory from its uncompressed bytes (at most `maxEntries` entries).
    public static func decode(_ bytes: [UInt8], maxEntries: Int = 10_000_000) throws(Damage) -> [Entry] {
        var at = 0
        func varint() throws(Damage) -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard at < bytes.count, shift < 64 else { throw Damage("a PMTiles directory ends inside a number") }
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = Int(clamping: try varint())
        guard count <= maxEntries, count <= bytes.count else { throw Damage("a PMTiles directory claims \(count) entries") }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var id: UInt64 = 0
        for i in 0..<count { id = id &+ (try varint()); entries[i].tileID = id }
        for i in 0..<count { entries[i].runLength = UInt32(clamping: try varint()) }
        for i in 0..<count { entries[i].length = UInt32(clamping: try varint()) }
        for i in 0..<count {
            let value = try varint()
            if value == 0 {
                guard i > 0 else { throw Damage("a PMTiles directory's first offset is relative") }
                entries[i].offset = entries[i - 1].offset &+ UInt64(entries[i - 1].length)
            } else {
                entries[i].offset = value - 1
            }
        }
        return entries
    }
}

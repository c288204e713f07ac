/// What a PMTiles v3 archive holds, read: its header and every tile entry, the leaf
/// directories followed, each section and tile checked to lie within the file. The bytes come
/// from the caller (`read`: a file, a range request) and so does the decompression of the
/// directories (`gunzip`, see ``PMTilesDirectory`` for why).
public struct PMTilesIndex: Sendable {
    public let header: PMTilesHeader
    /// Every tile entry, by tile id (offsets relative to the tile data); no leaf pointer.
    public let entries: [PMTilesDirectory.Entry]

    /// How deep leaf directories may nest (the spec's writers make one level).
    public static let maxDepth = 4

    /// Reads the archive of `size` bytes that `read(offset, count)` returns `count` bytes of.
    /// Throws ``PMTilesDirectory/Damage`` when it is not a version 3 archive with gzip
    /// directories, or lies about where its parts are; the errors of `read` and `gunzip` as they are.
    public init(size: UInt64, read: (_ offset: UInt64, _ count: Int) throws -> [UInt8], gunzip: ([UInt8]) throws -> [UInt8]) throws {
        guard let header = PMTilesHeader(try read(0, Int(min(size, UInt64(PMTilesHeader.size))))) else {
            throw PMTilesDirectory.Damage("no version 3 header")
        }
        func within(_ offset: UInt64, _ length: UInt64, _ end: UInt64) -> Bool { offset <= end && length <= end - offset }
        for (offset, length) in [(header.rootOffset, header.rootLength), (header.metadataOffset, header.metadataLength),
                                 (header.leavesOffset, header.leavesLength), (header.tileDataOffset, header.tileDataLength)]
            where !within(offset, length, size) {
            throw PMTilesDirectory.Damage("a section lies past its end")
        }
        guard header.internalCompression == PMTilesHeader.gzip else { throw PMTilesDirectory.Damage("its directories are not gzip-compressed") }
        var collected: [PMTilesDirectory.Entry] = []
        func collect(_ directory: [PMTilesDirectory.Entry], depth: Int) throws {
            for entry in directory {
                if entry.runLength > 0 {
                    guard within(entry.offset, UInt64(entry.length), header.tileDataLength) else {
                        throw PMTilesDirectory.Damage("a tile lies past the tile data")
                    }
                    collected.append(entry)
                } else {
                    guard depth < Self.maxDepth, within(entry.offset, UInt64(entry.length), header.leavesLength) else {
                        throw PMTilesDirectory.Damage("a leaf directory lies past its section")
                    }
                    try collect(PMTilesDirectory.decode(gunzip(read(header.leavesOffset + entry.offset, Int(entry.length)))), depth: depth + 1)
                }
            }
        }
        try collect(PMTilesDirectory.decode(gunzip(read(header.rootOffset, Int(header.rootLength)))), depth: 0)
        self.header = header
        entries = collected
    }

    /// The entry holding `tileID`, if any (binary search; a run covers `runLength` ids).
    public func entry(for tileID: UInt64) -> PMTilesDirectory.Entry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= tileID { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        return tileID - entry.tileID < UInt64(entry.runLength) ? entry : nil
    }
}

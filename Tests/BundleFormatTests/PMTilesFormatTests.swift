import QuakeBundleFormat
import Testing

/// Issue 49.2: PMTiles v3 as the format home has it (header, directories, tile ids, reading an
/// archive's entries), without the compression the caller brings: here the directories are
/// stored as they are (an identity `compress`/`gunzip`), so the format's own logic is what is
/// checked. The bundle's real archives (gzip) are read back in BundlesTests and PublishingTests.
@Suite struct PMTilesFormatTests {
    static func same(_ bytes: [UInt8]) -> [UInt8] { bytes }

    @Test func theHeaderIs127BytesAndReadsBack() throws {
        var header = PMTilesHeader()
        (header.rootLength, header.metadataOffset, header.tileDataLength, header.tileEntries) = (300, 427, 1 << 40, 12)
        (header.minZoom, header.maxZoom, header.centerZoom, header.clustered) = (0, 14, 3, false)
        header.bounds = (PMTilesHeader.e7(-180), PMTilesHeader.e7(-85.05), PMTilesHeader.e7(180), PMTilesHeader.e7(85.05))
        header.center = (PMTilesHeader.e7(-122.5), PMTilesHeader.e7(37.75))
        let bytes = header.bytes
        #expect(bytes.count == 127 && Array(bytes.prefix(8)) == Array("PMTiles".utf8) + [3])
        #expect(bytes[97] == 2 && bytes[98] == 2 && bytes[99] == 1, "gzip directories and tiles, MVT")
        let read = try #require(PMTilesHeader(bytes))
        #expect(read == header && read.bounds.0 == -1_800_000_000 && read.center.1 == 377_500_000 && read.tileDataLength == 1 << 40)
        var version2 = bytes
        version2[7] = 2
        #expect(PMTilesHeader(version2) == nil && PMTilesHeader(bytes.prefix(126)) == nil)
    }

    @Test func tileIDsFollowTheHilbertCurveZoomAfterZoom() {
        #expect(PMTilesTileID.of(z: 0, x: 0, y: 0) == 0)
        // The spec's example: zoom 1 in Hilbert order.
        #expect([(0, 0), (0, 1), (1, 1), (1, 0)].map { PMTilesTileID.of(z: 1, x: $0.0, y: $0.1) } == [1, 2, 3, 4])
        #expect(PMTilesTileID.of(z: 2, x: 0, y: 0) == 5 && PMTilesTileID.of(z: 3, x: 0, y: 0) == 21)
    }

    /// Entries as a writer makes them: runs, contiguous and repeated offsets.
    static func entries(_ count: Int) -> [PMTilesDirectory.Entry] {
        var out: [PMTilesDirectory.Entry] = [], offset: UInt64 = 0, id: UInt64 = 0
        for i in 0..<count {
            id += UInt64(1 + i % 3)
            let repeated = i % 7 == 6
            out.append(.init(tileID: id, offset: repeated ? 0 : offset, length: UInt32(100 + i % 50), runLength: UInt32(1 + i % 2)))
            if !repeated { offset += UInt64(100 + i % 50) }
            id += UInt64(i % 2)
        }
        return out
    }

    @Test func aDirectoryReadsBackAsWritten() throws {
        let entries = Self.entries(500)
        #expect(try PMTilesDirectory.decode(PMTilesDirectory.encode(entries[...])) == entries)
        #expect(throws: PMTilesDirectory.Damage.self) { try PMTilesDirectory.decode(Array(PMTilesDirectory.encode(entries[...]).dropLast())) }
        #expect(throws: PMTilesDirectory.Damage.self) { try PMTilesDirectory.decode([5, 1]) }
    }

    /// An archive of `entries`'s directories and as many tile bytes as they name.
    static func archive(_ entries: [PMTilesDirectory.Entry]) throws -> [UInt8] {
        let (root, leaves) = try PMTilesDirectory.build(entries, compress: same)
        var header = PMTilesHeader()
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.leavesOffset = header.metadataOffset
        header.leavesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leavesOffset + header.leavesLength
        header.tileDataLength = entries.map { $0.offset + UInt64($0.length) }.max() ?? 0
        return header.bytes + root + leaves + [UInt8](repeating: 7, count: Int(header.tileDataLength))
    }

    static func index(_ bytes: [UInt8]) throws -> PMTilesIndex {
        try PMTilesIndex(size: UInt64(bytes.count), read: { Array(bytes[Int($0)..<Int($0) + $1]) }, gunzip: same)
    }

    @Test(arguments: [10, 20_000]) func anArchiveReadsBackEveryEntryThroughItsLeaves(count: Int) throws {
        let entries = Self.entries(count)
        let (root, leaves) = try PMTilesDirectory.build(entries, compress: Self.same)
        #expect(root.count <= PMTilesHeader.rootLimit - PMTilesHeader.size)
        #expect(leaves.isEmpty == (count == 10), "\(count) entries: leaves only when the root would not fit")
        let index = try Self.index(Self.archive(entries))
        #expect(index.entries == entries)
        for entry in entries.prefix(300) {
            #expect(index.entry(for: entry.tileID) == entry)
            #expect(index.entry(for: entry.tileID + UInt64(entry.runLength)) == entries.first { $0.tileID == entry.tileID + UInt64(entry.runLength) })
        }
        #expect(index.entry(for: 0) == nil)
    }

    @Test func anArchiveThatLiesAboutItsPartsIsRefused() throws {
        let good = try Self.archive(Self.entries(20_000))
        let header = try #require(PMTilesHeader(good))
        func refused(_ change: (inout PMTilesHeader) -> Void, _ why: String) {
            var lying = header
            change(&lying)
            let damage = #expect(throws: PMTilesDirectory.Damage.self) { try Self.index(lying.bytes + good.dropFirst(PMTilesHeader.size)) }
            #expect(damage?.description == why)
        }
        refused({ $0.tileDataLength += 1 }, "a section lies past its end")
        refused({ $0.rootOffset = .max }, "a section lies past its end")
        refused({ $0.leavesLength -= 1 }, "a leaf directory lies past its section")
        refused({ $0.tileDataLength -= 1 }, "a tile lies past the tile data")
        refused({ $0.internalCompression = 3 }, "its directories are not gzip-compressed")
        let damage = #expect(throws: PMTilesDirectory.Damage.self) { try Self.index(Array("PMTiles".utf8) + [2] + good.dropFirst(8)) }
        #expect(damage?.description == "no version 3 header")
    }
}

import Foundation
import QuakeCommon
import QuakeTiles

/// A PMTiles v3 file as publish reads it: its header, every tile entry (the leaves
/// followed), its metadata as stored, and its bytes by offset.
final class PMTilesArchive {
    let url: URL
    let header: PMTilesHeader
    /// Every tile entry, by tile id (offsets relative to the tile data).
    let entries: [PMTilesDirectory.Entry]
    /// The metadata section as stored (gzip-compressed JSON).
    let metadata: Data
    private let handle: FileHandle

    init(_ url: URL) throws {
        self.url = url
        let handle = try FileHandle(forReadingFrom: url)
        self.handle = handle
        let size = try handle.seekToEnd()
        func fail(_ why: String) -> QuakeBakeError { QuakeBakeError("\(url.path) is not a PMTiles archive publish can read: \(why)") }
        guard let header = PMTilesHeader(try Self.read(handle, at: 0, count: PMTilesHeader.size)) else { throw fail("no version 3 header") }
        for (offset, length) in [(header.rootOffset, header.rootLength), (header.metadataOffset, header.metadataLength),
                                 (header.leavesOffset, header.leavesLength), (header.tileDataOffset, header.tileDataLength)]
            where offset > size || length > size - offset {
            throw fail("a section lies past its end")
        }
        guard header.internalCompression == 2 else { throw fail("its directories are not gzip-compressed") }
        self.header = header
        metadata = try Self.read(handle, at: header.metadataOffset, count: Int(header.metadataLength))
        var collected: [PMTilesDirectory.Entry] = []
        func collect(_ directory: [PMTilesDirectory.Entry], depth: Int) throws {
            for entry in directory {
                if entry.runLength > 0 {
                    guard entry.offset + UInt64(entry.length) <= header.tileDataLength else { throw fail("a tile lies past the tile data") }
                    collected.append(entry)
                } else {
                    guard depth < 4, entry.offset + UInt64(entry.length) <= header.leavesLength else { throw fail("a leaf directory lies past its section") }
                    try collect(PMTilesDirectory.parse(try Self.read(handle, at: header.leavesOffset + entry.offset, count: Int(entry.length))),
                                depth: depth + 1)
                }
            }
        }
        do {
            try collect(PMTilesDirectory.parse(try Self.read(handle, at: header.rootOffset, count: Int(header.rootLength))), depth: 0)
        } catch let damage as PMTilesDirectory.Damage {
            throw fail(damage.description)
        }
        entries = collected
    }

    deinit { try? handle.close() }

    /// `length` bytes of the tile data from `offset` (relative to the tile data).
    func tile(at offset: UInt64, length: UInt32) throws -> Data {
        try Self.read(handle, at: header.tileDataOffset + offset, count: Int(length))
    }

    /// The entry holding `tileID`, if any (binary search; a run covers `runLength` ids).
    func entry(for tileID: UInt64) -> PMTilesDirectory.Entry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= tileID { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        return tileID < entry.tileID + UInt64(entry.runLength) ? entry : nil
    }

    static func read(_ handle: FileHandle, at offset: UInt64, count: Int) throws -> Data {
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw QuakeBakeError("a PMTiles file ended early at byte \(offset + UInt64(data.count))") }
        return data
    }
}

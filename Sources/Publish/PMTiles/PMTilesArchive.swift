import Foundation
import QuakeBundleFormat
import QuakeCommon

/// A PMTiles v3 file as publish reads it: what it holds (``PMTilesIndex``, the format's reader,
/// over this file), its metadata as stored, and its bytes by offset.
final class PMTilesArchive {
    let url: URL
    /// The header and every tile entry.
    let index: PMTilesIndex
    /// The metadata section as stored (gzip-compressed JSON).
    let metadata: Data
    private let handle: FileHandle

    var header: PMTilesHeader { index.header }
    /// Every tile entry, by tile id (offsets relative to the tile data).
    var entries: [PMTilesDirectory.Entry] { index.entries }

    init(_ url: URL) throws {
        self.url = url
        let handle = try FileHandle(forReadingFrom: url)
        self.handle = handle
        let size = try handle.seekToEnd()
        do {
            index = try PMTilesIndex(size: size, read: { [UInt8](try Self.read(handle, at: $0, count: $1)) },
                                     gunzip: { [UInt8](try Gzip.decompress(Data($0), limit: 256 << 20)) })
        } catch let damage as PMTilesDirectory.Damage {
            throw QuakeBakeError("\(url.path) is not a PMTiles archive publish can read: \(damage.description)")
        }
        metadata = try Self.read(handle, at: index.header.metadataOffset, count: Int(index.header.metadataLength))
    }

    deinit { try? handle.close() }

    /// `length` bytes of the tile data from `offset` (relative to the tile data).
    func tile(at offset: UInt64, length: UInt32) throws -> Data {
        try Self.read(handle, at: header.tileDataOffset + offset, count: Int(length))
    }

    /// The entry holding `tileID`, if any.
    func entry(for tileID: UInt64) -> PMTilesDirectory.Entry? { index.entry(for: tileID) }

    static func read(_ handle: FileHandle, at offset: UInt64, count: Int) throws -> Data {
        try handle.seek(toOffset: offset)
        let data = try handle.read(upToCount: count) ?? Data()
        guard data.count == count else { throw QuakeBakeError("a PMTiles file ended early at byte \(offset + UInt64(data.count))") }
        return data
    }
}

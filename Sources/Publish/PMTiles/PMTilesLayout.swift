import Foundation
import QuakeBundleFormat

/// Where each tile of a new PMTiles archive lies in a published object built on the
/// previously published one: the tiles whose bytes are not in it yet ("fresh") first, then the
/// old object's live tiles from its start until the bytes uploaded (with `uploadedBefore`,
/// what the upload carries before the tile data) reach `minimumFresh` (they are uploaded
/// again, so that the part uploaded is big enough for a multipart upload, and the dead bytes
/// among them are dropped), then the old object's tile data from its next live tile to its
/// last, which the store copies (`UploadPartCopy`).
struct PMTilesLayout {
    /// The new object's entries (same ids, lengths and runs as the bundle's; new offsets).
    let entries: [PMTilesDirectory.Entry]
    /// The tiles of the fresh part, in order: (from the new archive?, offset, length).
    let fresh: [(fromNew: Bool, offset: UInt64, length: UInt32)]
    let freshLength: UInt64
    /// Where the copied part starts in the old object's tile data (its first live tile not uploaded again).
    let copyStart: UInt64
    /// Bytes of the copied part that no entry names.
    let deadBytes: UInt64
    /// The new object's tile data length.
    var tileDataLength: UInt64 { freshLength + copyLength }
    let copyLength: UInt64

    /// Lays out `new` over `old`; `same` says whether a new tile's bytes equal an old one's.
    init(new: PMTilesArchive, old: PMTilesArchive, uploadedBefore: UInt64, minimumFresh: UInt64) throws {
        // Each distinct blob of the new archive (by its offset): the old blob with its bytes, if any.
        var reused: [UInt64: UInt64] = [:], decided: Set<UInt64> = []
        var freshNew: [(UInt64, UInt32)] = []
        for entry in new.entries where decided.insert(entry.offset).inserted {
            if let candidate = old.entry(for: entry.tileID), candidate.length == entry.length,
               try old.tile(at: candidate.offset, length: candidate.length) == new.tile(at: entry.offset, length: entry.length) {
                reused[entry.offset] = candidate.offset
            } else {
                freshNew.append((entry.offset, entry.length))
            }
        }
        // The old blobs still named, in the order they lie.
        var lengths: [UInt64: UInt32] = [:]
        for entry in new.entries { if let at = reused[entry.offset] { lengths[at] = entry.length } }
        let live = lengths.sorted { $0.key < $1.key }
        var pieces = freshNew.map { (fromNew: true, offset: $0.0, length: $0.1) }
        var freshLength = freshNew.reduce(UInt64(0)) { $0 + UInt64($1.1) }
        var moved: [UInt64: UInt64] = [:]  // old offset → new offset, for the old blobs uploaded again
        var next = 0
        while next < live.count, uploadedBefore + freshLength < minimumFresh {
            let (offset, length) = live[next]
            moved[offset] = freshLength
            pieces.append((fromNew: false, offset: offset, length: length))
            freshLength += UInt64(length)
            next += 1
        }
        // The copy starts at the first live tile not uploaded again: the dead bytes before it
        // (old versions of tiles) are left behind…
        let copyStart = next < live.count ? live[next].key : old.header.tileDataLength
        let copied = live[next...]
        let liveCopied = copied.reduce(UInt64(0)) { $0 + UInt64($1.value) }
        // …and so are those after the last live tile.
        copyLength = (copied.last.map { $0.key + UInt64($0.value) } ?? copyStart) - copyStart
        deadBytes = copyLength - liveCopied
        var freshAt: [UInt64: UInt64] = [:], at: UInt64 = 0
        for (offset, length) in freshNew { freshAt[offset] = at; at += UInt64(length) }
        entries = new.entries.map { entry in
            var placed = entry
            if let old = reused[entry.offset] {
                placed.offset = moved[old] ?? freshLength + (old - copyStart)
            } else {
                placed.offset = freshAt[entry.offset]!
            }
            return placed
        }
        fresh = pieces
        self.freshLength = freshLength
        self.copyStart = copyStart
    }
}

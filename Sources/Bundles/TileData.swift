import Foundation
import QuakeCommon
import QuakeTiles

/// A 128-bit hash of a tile's compressed bytes, for storing identical tiles once.
struct DataHash: Hashable, Sendable {
    let a: UInt64
    let b: UInt64

    init(a: UInt64, b: UInt64) {
        self.a = a
        self.b = b
    }

    init(_ bytes: [UInt8]) {
        var first = SipHasher()
        var second = SipHasher(key0: 0x5175_616B_6542_616B, key1: 0x6544_6174_6148_6173)
        bytes.withUnsafeBytes {
            first.combine(bytes: $0)
            second.combine(bytes: $0)
        }
        a = first.finalize()
        b = second.finalize()
    }
}

/// One finished tile: where its gzip bytes are and what it holds.
struct TileRecord: Sendable {
    /// The file a tile's bytes are in: this run's tile data file, or the previous bundle's PMTiles.
    enum Origin: Sendable { case fresh, previous }

    let key: TileKey
    /// `TileContent.fingerprint`: equal for equal content.
    let contentHash: UInt64
    let origin: Origin
    let offset: UInt64
    let length: UInt32
    let dataHash: DataHash
    let events: Int32
    let clusters: Int32
}

/// Reads tile bytes wherever they are, and appends fresh tiles to this run's data file.
final class TileData: @unchecked Sendable {
    private let freshURL: URL
    private let freshHandle: FileHandle
    private var freshLength: UInt64 = 0
    private let previousDescriptor: Int32?
    private let freshDescriptor: Int32

    /// `fresh` is created (a temporary file of the new bundle); `previous` is the current bundle's PMTiles, if reused.
    init(fresh: URL, previous: URL?) throws {
        freshURL = fresh
        guard FileManager.default.createFile(atPath: fresh.path, contents: nil) else {
            throw QuakeBakeError("cannot create \(fresh.path)")
        }
        freshHandle = try FileHandle(forWritingTo: fresh)
        freshDescriptor = open(fresh.path, O_RDONLY | O_CLOEXEC)
        if let previous {
            let fd = open(previous.path, O_RDONLY | O_CLOEXEC)
            previousDescriptor = fd >= 0 ? fd : nil
        } else {
            previousDescriptor = nil
        }
    }

    deinit {
        try? freshHandle.close()
        close(freshDescriptor)
        if let previousDescriptor { close(previousDescriptor) }
        try? FileManager.default.removeItem(at: freshURL)
    }

    /// True when tiles of the previous bundle can be read.
    var hasPrevious: Bool { previousDescriptor != nil }

    /// Appends fresh tile bytes; returns their offset in the data file.
    func append(_ bytes: [UInt8]) throws -> UInt64 {
        let offset = freshLength
        try freshHandle.write(contentsOf: bytes)
        freshLength += UInt64(bytes.count)
        return offset
    }

    /// Appends the gzip bytes of `records`, in order, to the file open on `output` (at its
    /// position). Tiles that follow one another in the same file (those taken over from the
    /// previous bundle mostly do) go across as one range, copied by the kernel.
    func copy<S: Sequence>(_ records: S, to output: Int32) throws where S.Element == TileRecord {
        var run: (origin: TileRecord.Origin, offset: UInt64, length: Int)?
        func flush() throws {
            guard let range = run else { return }
            let input = range.origin == .fresh ? freshDescriptor : previousDescriptor!
            try FileCopy.append(range.length, from: input, at: range.offset, to: output,
                                what: "\(range.length) bytes of tiles at \(range.offset) of the \(range.origin == .fresh ? "fresh tiles" : "previous bundle")")
        }
        for record in records {
            if let range = run, range.origin == record.origin, range.offset + UInt64(range.length) == record.offset {
                run?.length += Int(record.length)
            } else {
                try flush()
                run = (record.origin, record.offset, Int(record.length))
            }
        }
        try flush()
    }

    /// The gzip bytes of `record`.
    func bytes(of record: TileRecord) throws -> [UInt8] {
        let fd = record.origin == .fresh ? freshDescriptor : previousDescriptor!
        var buffer = [UInt8](repeating: 0, count: Int(record.length))
        let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, Int(record.length), off_t(record.offset)) }
        guard read == Int(record.length) else {
            throw QuakeBakeError("cannot read tile \(record.key) (\(record.length) bytes at \(record.offset)) back")
        }
        return buffer
    }
}

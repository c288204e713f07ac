import Foundation

/// Decodes a gzip file (RFC 1952; one member or several, DEFLATE inside, RFC 1951) into another,
/// never holding more than a megabyte and DEFLATE's 32 KB window in memory.
///
/// By hand because this library may depend on nothing but Foundation and SQLite: Foundation has
/// no decompression on Linux (Apple's Compression framework is Apple's only), and linking zlib
/// would be a third library for an app to carry. The published app database travels gzip-compressed
/// (docs/publishing.md); the tests check this decoder against zlib and libdeflate output of
/// real bundle files, every block type, and damaged, cut-short and oversized input.
final class GzipFile {
    /// What a decoded file turned out to be.
    struct Decoded: Equatable {
        let bytes: Int64
        let sha256: String
    }

    private static let windowSize = 32 * 1024
    private static let flushAt = (1 << 20) + windowSize
    private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: GzipFile.flushAt + 258)
    private var position = 0
    private var total: Int64 = 0
    private let limit: Int64
    private let sink: FileHandle
    private var digest = SHA256Digest()
    private var crc = CRC32()
    private var memberStart = 0
    private var memberTotal: Int64 = 0

    private init(limit: Int64, sink: FileHandle) {
        self.limit = limit
        self.sink = sink
    }

    deinit { output.deallocate() }

    /// Decodes the gzip file at `source` into a new file at `destination` (replaced if there),
    /// refusing to write more than `limit` bytes, and returns the decoded size and sha256.
    static func decode(_ source: URL, to destination: URL, limit: Int64) throws -> Decoded {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        let decoder = GzipFile(limit: limit, sink: output)
        var bits = BitInput(input)
        try decoder.member(&bits)
        while try !bits.isAtEnd() {  // gzip allows members one after another
            do {
                try decoder.member(&bits)
            } catch GzipError.notGzip {
                throw GzipError.damaged("bytes after the end of its gzip data")
            }
        }
        try decoder.flush(keeping: 0)
        return Decoded(bytes: decoder.total, sha256: decoder.digest.hex())
    }

    /// One gzip member: header, DEFLATE blocks, trailer.
    private func member(_ bits: inout BitInput) throws {
        guard try bits.byte() == 0x1f, try bits.byte() == 0x8b, try bits.byte() == 8 else { throw GzipError.notGzip }
        let flags = try bits.byte()
        guard flags & 0xe0 == 0 else { throw GzipError.damaged("reserved header flags set") }
        _ = try bits.littleEndian(4)  // modification time
        _ = try bits.littleEndian(2)  // extra flags, operating system
        if flags & 4 != 0 {  // FEXTRA
            let length = try bits.littleEndian(2)
            for _ in 0..<length { _ = try bits.byte() }
        }
        for flag in [UInt8(8), 16] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            var length = 0
            while try bits.byte() != 0 {
                length += 1
                guard length < 65_536 else { throw GzipError.damaged("a header name or comment past 64 KB") }
            }
        }
        if flags & 2 != 0 { _ = try bits.littleEndian(2) }  // FHCRC
        crc = CRC32()
        memberStart = position
        memberTotal = 0
        var last = false
        while !last {
            last = try bits.bits(1) == 1
            switch try bits.bits(2) {
            case 0: try stored(&bits)
            case 1: try compressed(&bits, literals: HuffmanCode.fixedLiterals, distances: HuffmanCode.fixedDistances)
            case 2:
                let (literals, distances) = try dynamicCodes(&bits)
                try compressed(&bits, literals: literals, distances: distances)
            default: throw GzipError.damaged("a block of the reserved type 3 at byte \(bits.offset)")
            }
        }
        bits.alignToByte()
        checksum(upTo: position)
        let expectedCRC = try bits.littleEndian(4), expectedSize = try bits.littleEndian(4)
        guard expectedCRC == crc.value else { throw GzipError.damaged("its CRC-32 does not match") }
        guard expectedSize == UInt32(truncatingIfNeeded: memberTotal) else { throw GzipError.damaged("its length does not match its trailer") }
    }

    /// A stored block: LEN, NLEN, LEN bytes.
    private func stored(_ bits: inout BitInput) throws {
        bits.alignToByte()
        let length = try bits.littleEndian(2), complement = try bits.littleEndian(2)
        guard length == ~complement & 0xffff else { throw GzipError.damaged("a stored block whose length check fails") }
        for _ in 0..<length { try put(try bits.byte()) }
    }

    /// The code lengths of a dynamic block (RFC 1951 3.2.7), as its two codes.
    private func dynamicCodes(_ bits: inout BitInput) throws -> (HuffmanCode, HuffmanCode) {
        let literalCount = Int(try bits.bits(5)) + 257, distanceCount = Int(try bits.bits(5)) + 1
        let lengthCodeCount = Int(try bits.bits(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw GzipError.damaged("too many codes in a dynamic block") }
        var lengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<lengthCodeCount { lengthLengths[Self.lengthCodeOrder[i]] = UInt8(try bits.bits(3)) }
        let lengthCode = try HuffmanCode(lengths: lengthLengths)
        var lengths: [UInt8] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&bits)
            switch symbol {
            case 0...15: lengths.append(UInt8(symbol))
            case 16:
                guard let previous = lengths.last else { throw GzipError.damaged("a repeat with nothing to repeat") }
                lengths += repeatElement(previous, count: 3 + Int(try bits.bits(2)))
            case 17: lengths += repeatElement(0, count: 3 + Int(try bits.bits(3)))
            default: lengths += repeatElement(0, count: 11 + Int(try bits.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw GzipError.damaged("code lengths that run past their count") }
        guard lengths[256] != 0 else { throw GzipError.damaged("no end-of-block code") }
        return (try HuffmanCode(lengths: Array(lengths[0..<literalCount])),
                try HuffmanCode(lengths: Array(lengths[literalCount...]), incompleteAllowed: true))
    }

    /// The symbols of a Huffman-coded block, up to its end-of-block code.
    private func compressed(_ bits: inout BitInput, literals: HuffmanCode, distances: HuffmanCode) throws {
        while true {
            let symbol = try literals.decode(&bits)
            if symbol < 256 {
                try put(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw GzipError.damaged("the invalid length symbol \(symbol)") }
            let length = Int(Self.lengthBase[lengthIndex]) + Int(try bits.bits(Int(Self.lengthExtra[lengthIndex])))
            let distanceSymbol = try distances.decode(&bits)
            guard distanceSymbol < 30 else { throw GzipError.damaged("the invalid distance symbol \(distanceSymbol)") }
            let distance = Int(Self.distanceBase[distanceSymbol]) + Int(try bits.bits(Int(Self.distanceExtra[distanceSymbol])))
            guard Int64(distance) <= memberTotal else { throw GzipError.damaged("a distance before the start of the data") }
            try copy(length: length, distance: distance)
        }
    }

    @inline(__always) private func put(_ byte: UInt8) throws {
        output[position] = byte
        position += 1
        try advance(1)
    }

    /// Copies `length` bytes from `distance` back (they may overlap what is being written).
    @inline(__always) private func copy(length: Int, distance: Int) throws {
        var from = position - distance
        for _ in 0..<length {
            output[position] = output[from]
            position += 1
            from += 1
        }
        try advance(length)
    }

    @inline(__always) private func advance(_ n: Int) throws {
        total += Int64(n)
        memberTotal += Int64(n)
        guard total <= limit else { throw GzipError.tooLong(limit) }
        if position >= Self.flushAt { try flush(keeping: Self.windowSize) }
    }

    /// Writes all but the last `keeping` bytes out (they stay as the window for later distances).
    private func flush(keeping: Int) throws {
        let out = position - keeping
        guard out > 0 else { return }
        checksum(upTo: out)
        let buffer = UnsafeRawBufferPointer(start: output, count: out)
        digest.update(buffer)
        try sink.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: buffer.baseAddress!), count: out, deallocator: .none))
        output.update(from: output.advanced(by: out), count: keeping)
        position = keeping
        memberStart = max(0, memberStart - out)
    }

    /// Adds the bytes of the current member from `memberStart` up to `end` to its CRC.
    private func checksum(upTo end: Int) {
        guard end > memberStart else { return }
        crc.update(output.advanced(by: memberStart), count: end - memberStart)
        memberStart = end
    }

    private static let lengthCodeOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase: [UInt16] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase: [UInt16] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                                 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [UInt8] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
}

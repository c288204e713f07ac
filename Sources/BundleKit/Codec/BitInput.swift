import Foundation

/// The bits of a file, least significant first (DEFLATE's order, RFC 1951 3.1.1), read a
/// megabyte at a time. Reading past the end throws ``GzipError``.
struct BitInput {
    private let handle: FileHandle
    private var chunk: [UInt8] = []
    private var index = 0
    private var atEnd = false
    /// Bits read from the file but not yet consumed, the next one lowest.
    private(set) var buffer: UInt64 = 0
    /// How many bits `buffer` holds.
    private(set) var count = 0
    /// Bytes taken from the file so far (for messages).
    private(set) var offset: Int64 = 0

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Fills `buffer` with as many whole bytes as fit (at least 57 bits unless the file ends).
    mutating func refill() throws {
        while count <= 56 {
            if index == chunk.count {
                guard !atEnd, let next = try handle.read(upToCount: 1 << 20), !next.isEmpty else {
                    atEnd = true
                    return
                }
                chunk = [UInt8](next)
                index = 0
            }
            buffer |= UInt64(chunk[index]) << UInt64(count)
            index += 1
            offset += 1
            count += 8
        }
    }

    /// Consumes and returns the next `n` bits (n ≤ 32).
    mutating func bits(_ n: Int) throws -> UInt32 {
        if count < n {
            try refill()
            guard count >= n else { throw GzipError.cutShort }
        }
        let value = UInt32(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1))
        consume(n)
        return value
    }

    /// Drops `n` bits the caller has looked at in `buffer`.
    @inline(__always) mutating func consume(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    /// Drops the bits up to the next byte boundary.
    mutating func alignToByte() {
        consume(count % 8)
    }

    /// The next byte, once aligned.
    mutating func byte() throws -> UInt8 {
        UInt8(try bits(8))
    }

    /// The next `n` bytes (little-endian) as a number, once aligned.
    mutating func littleEndian(_ n: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for i in 0..<n { value |= UInt32(try byte()) << UInt32(8 * i) }
        return value
    }

    /// Whether every byte of the file has been consumed.
    mutating func isAtEnd() throws -> Bool {
        try refill()
        return count == 0
    }
}

/// Why a gzip file could not be decoded.
enum GzipError: Error, CustomStringConvertible, Equatable {
    case notGzip
    case cutShort
    case damaged(String)
    case tooLong(Int64)

    var description: String {
        switch self {
        case .notGzip: "not a gzip file (its first bytes are not gzip's)"
        case .cutShort: "the gzip data is cut short"
        case .damaged(let why): "the gzip data is damaged (\(why))"
        case .tooLong(let limit): "it decodes to more than the \(limit) bytes expected"
        }
    }
}

/// CRC-32 (ISO 3309, as gzip's trailer carries it), fed a piece at a time. By hand for the same
/// reason as ``SHA256Digest``: Foundation has no checksum on Linux and this library links only SQLite.
struct CRC32 {
    /// The checksum of everything added so far.
    private(set) var value: UInt32 = 0

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Adds `count` bytes at `bytes`.
    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var c = ~value
        Self.table.withUnsafeBufferPointer { table in
            for i in 0..<count { c = table[Int((c ^ UInt32(bytes[i])) & 0xff)] ^ (c >> 8) }
        }
        value = ~c
    }
}

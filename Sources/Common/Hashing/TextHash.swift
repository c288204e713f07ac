/// A fast 64-bit hash of text bytes, a word at a time, for telling values apart in memory
/// (the encoder's value table, distinct counts of the tilestats). Not stable across versions:
/// nothing stores it (stored hashes are `SipHasher`'s).
public enum TextHash {
    /// The hash of `raw`.
    public static func of(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            i += 8
        }
        while i < raw.count {
            h = (h ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3
            i += 1
        }
        return h
    }
}

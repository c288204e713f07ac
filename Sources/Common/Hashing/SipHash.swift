/// SipHash-2-4 (Aumasson & Bernstein, 2012) with a 64-bit result.
///
/// Used wherever quake-bake needs a hash that is the same on every machine and
/// every run (Swift's `Hasher` is seeded per process): feature ids, event
/// fingerprints, tile content hashes. The default key is the one from the
/// reference test vectors (bytes 0x00…0x0f), so anyone can recompute an id.
public struct SipHasher: Sendable {
    /// First half of the fixed key: bytes 00 01 … 07, little-endian.
    public static let fixedKey0: UInt64 = 0x0706_0504_0302_0100
    /// Second half of the fixed key: bytes 08 09 … 0f, little-endian.
    public static let fixedKey1: UInt64 = 0x0F0E_0D0C_0B0A_0908

    // Internal but inlinable: the hasher runs per column value of a million rows, and a
    // call per `combine` across the module boundary cost a fifth of the store scan.
    @usableFromInline var v0: UInt64
    @usableFromInline var v1: UInt64
    @usableFromInline var v2: UInt64
    @usableFromInline var v3: UInt64
    @usableFromInline var tail: UInt64 = 0
    @usableFromInline var tailCount = 0
    @usableFromInline var length = 0

    /// A hasher with the given key (the fixed key unless told).
    @inlinable
    public init(key0: UInt64 = SipHasher.fixedKey0, key1: UInt64 = SipHasher.fixedKey1) {
        v0 = key0 ^ 0x736F_6D65_7073_6575
        v1 = key1 ^ 0x646F_7261_6E64_6F6D
        v2 = key0 ^ 0x6C79_6765_6E65_7261
        v3 = key1 ^ 0x7465_6462_7974_6573
    }

    /// The hash of `bytes` under the fixed key.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = SipHasher()
        let done: Void? = bytes.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil { for byte in bytes { hasher.combine(byte: byte) } }
        return hasher.finalize()
    }

    /// Adds one byte.
    @inlinable
    public mutating func combine(byte: UInt8) {
        tail |= UInt64(byte) << (8 * UInt64(tailCount))
        tailCount += 1
        length += 1
        if tailCount == 8 {
            compress(tail)
            tail = 0
            tailCount = 0
        }
    }

    /// Adds raw bytes (eight at a time when aligned with the message so far).
    @inlinable
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var i = 0
        while tailCount != 0 && i < bytes.count {
            combine(byte: bytes[i])
            i += 1
        }
        while i + 8 <= bytes.count {
            compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
            length += 8
            i += 8
        }
        while i < bytes.count {
            combine(byte: bytes[i])
            i += 1
        }
    }

    /// Adds a 64-bit value as 8 little-endian bytes.
    @inlinable
    public mutating func combine(_ value: UInt64) {
        if tailCount == 0 {
            length += 8
            compress(value)
        } else {
            for shift in stride(from: 0, to: 64, by: 8) { combine(byte: UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// Adds a signed 64-bit value (two's complement, little-endian).
    @inlinable
    public mutating func combine(_ value: Int64) { combine(UInt64(bitPattern: value)) }

    /// Adds a double by its IEEE-754 bits.
    @inlinable
    public mutating func combine(_ value: Double) { combine(value.bitPattern) }

    /// The hash of everything added so far.
    @inlinable
    public func finalize() -> UInt64 {
        var copy = self
        let last = (UInt64(truncatingIfNeeded: length) << 56) | copy.tail
        copy.v3 ^= last
        copy.round()
        copy.round()
        copy.v0 ^= last
        copy.v2 ^= 0xFF
        copy.round()
        copy.round()
        copy.round()
        copy.round()
        return copy.v0 ^ copy.v1 ^ copy.v2 ^ copy.v3
    }

    @inlinable
    mutating func compress(_ m: UInt64) {
        v3 ^= m
        round()
        round()
        v0 ^= m
    }

    @inlinable
    mutating func round() {
        v0 &+= v1; v1 = rotate(v1, 13); v1 ^= v0; v0 = rotate(v0, 32)
        v2 &+= v3; v3 = rotate(v3, 16); v3 ^= v2
        v0 &+= v3; v3 = rotate(v3, 21); v3 ^= v0
        v2 &+= v1; v1 = rotate(v1, 17); v1 ^= v2; v2 = rotate(v2, 32)
    }

    @inlinable
    func rotate(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }
}

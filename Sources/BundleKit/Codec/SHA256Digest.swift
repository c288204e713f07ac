import Foundation

/// SHA-256 (FIPS 180-4), fed a piece at a time.
///
/// Written by hand because this library may depend on nothing but Foundation and SQLite, and
/// Foundation has no hash on Linux (CryptoKit and CommonCrypto are Apple's only). The tests
/// check it against libcrypto on random inputs of every length around the block boundaries and
/// on whole bundle files.
struct SHA256Digest {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var pending = [UInt8](repeating: 0, count: 64)
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// Adds `bytes` to what is hashed.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var count = bytes.count
        length &+= UInt64(count)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, count)
            pending.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: pendingCount).copyMemory(from: base, byteCount: take) }
            pendingCount += take
            base = base.advanced(by: take)
            count -= take
            guard pendingCount == 64 else { return }
            pending.withUnsafeBytes { compress($0.baseAddress!, blocks: 1) }
            pendingCount = 0
        }
        let blocks = count / 64
        if blocks > 0 { compress(base, blocks: blocks) }
        let rest = count - blocks * 64
        if rest > 0 {
            pending.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: base.advanced(by: blocks * 64), byteCount: rest) }
            pendingCount = rest
        }
    }

    /// Adds `data` to what is hashed.
    mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added, in lowercase hex.
    func hex() -> String {
        var copy = self
        let bits = length &* 8
        var padding = [UInt8](repeating: 0, count: pendingCount < 56 ? 56 - pendingCount : 120 - pendingCount)
        padding[0] = 0x80
        padding += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (56 - 8 * UInt64($0))) }
        padding.withUnsafeBytes { copy.update($0) }
        let s = copy.state
        return [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7].map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// The digest of `data`, in lowercase hex.
    static func hex(_ data: Data) -> String {
        var digest = SHA256Digest()
        digest.update(data)
        return digest.hex()
    }

    /// The digest of the file at `url`, read a megabyte at a time, in lowercase hex.
    static func hex(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = SHA256Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(chunk)
        }
        return digest.hex()
    }

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    @inline(__always) private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Runs the compression function over `blocks` 64-byte blocks at `base`.
    private mutating func compress(_ base: UnsafeRawPointer, blocks: Int) {
        var w = [UInt32](repeating: 0, count: 64)
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        Self.k.withUnsafeBufferPointer { k in
            w.withUnsafeMutableBufferPointer { w in
                for block in 0..<blocks {
                    let p = base.advanced(by: block * 64)
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let s0 = Self.rotr(w[i - 15], 7) ^ Self.rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                        let s1 = Self.rotr(w[i - 2], 17) ^ Self.rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for i in 0..<64 {
                        let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                        let t1 = h &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                        let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                        let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
                        (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

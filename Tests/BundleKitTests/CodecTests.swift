import Foundation
@testable import QuakeBundleKit
import QuakeCommon
import Testing
import TestSupport

/// The library's own SHA-256 and gzip decoder (it may link nothing but SQLite), checked against
/// libcrypto and against gzip files made by libdeflate, zlib and Python's gzip.
@Suite struct CodecTests {
    @Test func sha256MatchesLibcryptoAtEveryLengthAroundTheBlocks() {
        var generator = SystemRandomNumberGenerator()
        let random = Data((0..<40_000).flatMap { _ in withUnsafeBytes(of: generator.next()) { Array($0) } })
        for length in Array(0...200) + [1_000, 65_535, 65_536, 320_000] {
            let data = random.prefix(length)
            #expect(SHA256Digest.hex(data) == SHA256.hex(data), "length \(length)")
            var pieces = SHA256Digest()  // fed in uneven pieces
            var offset = 0
            while offset < data.count {
                let size = Int.random(in: 1...97, using: &generator)
                pieces.update(data[offset..<min(offset + size, data.count)])
                offset += size
            }
            #expect(pieces.hex() == SHA256.hex(data), "length \(length), in pieces")
        }
        #expect(SHA256Digest.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func gzipDecodesWhatLibdeflateWritesAtEveryLevel() throws {
        let dir = TemporaryDirectory("codec-levels")
        let samples = [try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-all_week-2020-06.geojson.gz"))),
                       Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }), Data()]
        for (n, content) in samples.enumerated() {
            for level: Int32 in [0, 1, 6, 12] {
                let file = dir.path("\(n)-\(level).gz")
                try Gzip.compress(content, level: level).write(to: file)
                let decoded = try GzipFile.decode(file, to: dir.path("out"), limit: Int64(content.count))
                #expect(decoded == GzipFile.Decoded(bytes: Int64(content.count), sha256: SHA256.hex(content)), "sample \(n), level \(level)")
                #expect(try Data(contentsOf: dir.path("out")) == content)
            }
        }
    }

    /// Python's zlib writes stored, fixed-Huffman and dynamic blocks, header names and comments,
    /// and members one after another (all of which gzip allows).
    @Test func gzipDecodesEveryBlockTypeAndHeaderThatZlibWrites() async throws {
        let dir = TemporaryDirectory("codec-zlib")
        let content = try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-all_week-2018-06.geojson.gz"))).prefix(400_000)
        try Data(content).write(to: dir.path("content"))
        let script = """
            import gzip, sys, zlib
            d = open(sys.argv[1] + "/content", "rb").read()
            def deflate(strategy, level=6):
                c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
                return c.compress(d) + c.flush()
            def member(body, flags=0, extra=b""):
                return b"\\x1f\\x8b\\x08" + bytes([flags]) + b"\\0\\0\\0\\0\\0\\xff" + extra + body + zlib.crc32(d).to_bytes(4, "little") + (len(d) & 0xffffffff).to_bytes(4, "little")
            open(sys.argv[1] + "/stored.gz", "wb").write(member(deflate(zlib.Z_DEFAULT_STRATEGY, 0)))
            open(sys.argv[1] + "/fixed.gz", "wb").write(member(deflate(zlib.Z_FIXED)))
            open(sys.argv[1] + "/huffman-only.gz", "wb").write(member(deflate(zlib.Z_HUFFMAN_ONLY)))
            open(sys.argv[1] + "/rle.gz", "wb").write(member(deflate(zlib.Z_RLE)))
            open(sys.argv[1] + "/named.gz", "wb").write(member(deflate(zlib.Z_DEFAULT_STRATEGY), 4 | 8 | 16, b"\\x03\\0abcname\\0comment\\0"))
            half = len(d) // 2
            open(sys.argv[1] + "/members.gz", "wb").write(gzip.compress(d[:half]) + gzip.compress(d[half:]))
            """
        try script.write(to: dir.path("make.py"), atomically: true, encoding: .utf8)
        _ = try await ChildProcess.run(WitnessScript.python.path, [dir.path("make.py").path, dir.url.path]).checked()
        for name in ["stored", "fixed", "huffman-only", "rle", "named", "members"] {
            let decoded = try GzipFile.decode(dir.path("\(name).gz"), to: dir.path("out"), limit: Int64(content.count))
            #expect(decoded == GzipFile.Decoded(bytes: Int64(content.count), sha256: SHA256.hex(Data(content))), "\(name)")
        }
    }

    /// Damage is refused, never decoded into something else: cut short, a flipped bit, bytes after
    /// the end, more than the expected size (a gzip bomb), not gzip at all.
    @Test func damagedGzipIsRefusedWithTheReason() throws {
        let dir = TemporaryDirectory("codec-damage")
        let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 * 31) % 251) })
        let good = try Gzip.compress(content)
        func decode(_ bytes: Data, limit: Int64 = Int64(content.count)) -> GzipError? {
            try? bytes.write(to: dir.path("in.gz"))
            do {
                _ = try GzipFile.decode(dir.path("in.gz"), to: dir.path("out"), limit: limit)
                return nil
            } catch let error as GzipError {
                return error
            } catch {
                return .damaged("\(error)")
            }
        }
        #expect(decode(good) == nil)
        #expect(decode(good.prefix(good.count / 2)) == .cutShort)
        var flipped = good
        flipped[flipped.count - 6] ^= 0x10  // inside the CRC
        #expect(decode(flipped)?.description.contains("CRC-32") == true)
        #expect(decode(good + Data("garbage".utf8))?.description.contains("bytes after the end") == true)
        #expect(decode(good, limit: 1_000) == .tooLong(1_000))
        #expect(decode(Data("not gzip at all".utf8)) == .notGzip)
        let bomb = try Gzip.compress(Data(count: 20_000_000))
        #expect(decode(bomb, limit: 1 << 20) == .tooLong(1 << 20), "a bomb stops at the limit")
        for offset in stride(from: 12, to: good.count - 8, by: good.count / 40) {  // damage anywhere is caught, or decodes to other bytes caught by the sha256
            var damaged = good
            damaged[offset] ^= 0xa5
            if decode(damaged) == nil {
                #expect(try SHA256.hex(fileAt: dir.path("out")) == SHA256.hex(content), "damage at \(offset) went unnoticed")
            }
        }
    }
}

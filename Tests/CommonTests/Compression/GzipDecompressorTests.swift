import Foundation
import QuakeCommon
import Testing
import TestSupport

/// `Gzip.Decompressor`: compressed pieces in, decompressed pieces out, whatever the cut.
@Suite struct GzipDecompressorTests {
    /// Feeds `data` in pieces of `pieceSize` bytes and reads into a buffer of `outputSize` bytes.
    static func streamed(_ data: Data, pieceSize: Int, outputSize: Int) throws -> Data {
        var output = Data()
        try streamed(data, pieceSize: pieceSize, outputSize: outputSize, into: &output)
        return output
    }

    /// Like `streamed(_:pieceSize:outputSize:)`, onto `output`, which holds what was read when it throws.
    static func streamed(_ data: Data, pieceSize: Int, outputSize: Int, into output: inout Data) throws {
        let gzip = try Gzip.Decompressor()
        var buffer = [UInt8](repeating: 0, count: outputSize)
        for start in stride(from: 0, to: data.count, by: pieceSize) {
            gzip.feed(data.subdata(in: start..<min(start + pieceSize, data.count)))
            while true {
                let produced = try buffer.withUnsafeMutableBytes { try gzip.read(into: $0) }
                if produced == 0 { break }
                output.append(contentsOf: buffer[..<produced])
            }
        }
        try gzip.finish()
    }

    /// The error `body` throws, as text; `nil` when it throws none.
    static func failure(_ body: () throws -> Data) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aRealFileReadsTheSameInAnyPieces() throws {
        let file = try Data(contentsOf: TestData.usgs("query-m6-1973-2023.csv.gz"))
        let whole = try Gzip.decompress(file)
        #expect(whole.count > 1_000_000)
        #expect(String(decoding: whole.prefix(5), as: UTF8.self) == "time,")
        for (piece, output) in [(1 << 18, 1 << 18), (1 << 16, 1 << 20), (4_093, 977), (file.count, 1 << 16)] {
            #expect(try Self.streamed(file, pieceSize: piece, outputSize: output) == whole, "pieces of \(piece), output \(output)")
        }
    }

    @Test func tinyPiecesAndATinyBufferStillReadEverything() throws {
        let text = Data((0..<20_000).map { "line \($0): \(String(repeating: "x", count: $0 % 37))\n" }.joined().utf8)
        let compressed = try Gzip.compress(text)
        #expect(try Self.streamed(compressed, pieceSize: 1, outputSize: 1) == text)
        #expect(try Self.streamed(compressed, pieceSize: 3, outputSize: 7) == text)
    }

    @Test func everyMemberIsReadAndZeroPaddingAfterTheLastIsAllowed() throws {
        let first = Data("first member\n".utf8), second = Data(repeating: 0x41, count: 100_000)
        let members = try Gzip.compress(first) + Gzip.compress(second)
        let padded = members + Data(count: 512)
        for data in [members, padded] {
            #expect(try Gzip.decompress(data) == first + second)
            for piece in [1, 2, 5, 64, 1_000, data.count] {
                #expect(try Self.streamed(data, pieceSize: piece, outputSize: 4_096) == first + second, "pieces of \(piece)")
            }
        }
        // Anything but zeros after the padding is not gzip.
        let damaged = padded + Data([0x1f])
        #expect(Self.failure { try Gzip.decompress(damaged) }?.contains("gzip: corrupt data") == true)
        #expect(Self.failure { try Self.streamed(damaged, pieceSize: 100, outputSize: 4_096) }?.contains("gzip: corrupt data") == true)
        // Bytes right after a member that start no other member are said to be just that.
        let trailing = members + Data("trailing text".utf8)
        let said = "gzip: corrupt data (bytes after the end of the compressed data that start no gzip member)"
        #expect(Self.failure { try Gzip.decompress(trailing) } == said)
        for piece in [1, 7, trailing.count] {
            #expect(Self.failure { try Self.streamed(trailing, pieceSize: piece, outputSize: 4_096) } == said, "pieces of \(piece)")
        }
        // Salvaged, they are left out and the text is whole.
        let salvaged = Gzip.salvage(trailing)
        #expect(salvaged.text == first + second && salvaged.damage.map { "\($0)" } == said)
        let sound = Gzip.salvage(members)
        #expect(sound.text == first + second && sound.damage == nil)
    }

    /// A sound single member is inflated in one call into the size its trailer states; a trailer
    /// that lies (about the size, to slip a bomb past the limit, or by damage) is read as the
    /// stream reads it: the text up to the damage, the damage said, a bomb refused.
    @Test func aTrailerThatLiesIsReadAsTheStreamReadsIt() throws {
        let text = Data((0..<50_000).map { "row \($0)\n" }.joined().utf8)
        let member = try Gzip.compress(text)
        #expect(try Gzip.decompress(member) == text && Gzip.salvage(member).damage == nil)
        func withSize(_ size: UInt32) -> Data {
            var forged = member
            withUnsafeBytes(of: size.littleEndian) { forged.replaceSubrange((forged.count - 4)..., with: $0) }
            return forged
        }
        for size in [UInt32(1), UInt32(text.count - 1), UInt32(text.count + 1), UInt32.max] {
            let forged = withSize(size)
            let said = Self.failure { try Gzip.decompress(forged) }
            #expect(said == Self.failure { try Self.streamed(forged, pieceSize: 1_000, outputSize: 4_096) } && said != nil, "size \(size)")
            let salvaged = Gzip.salvage(forged)
            #expect(text.starts(with: salvaged.text) && salvaged.damage.map { "\($0)" } == said, "size \(size)")
        }
        // A bomb whose trailer claims a small size is cut at the limit all the same; salvaged, its text is read up to the limit.
        #expect(throws: Gzip.SizeLimitExceeded.self) { try Gzip.decompress(withSize(100), limit: text.count / 2) }
        #expect(throws: Gzip.SizeLimitExceeded.self) { try Gzip.decompress(member, limit: text.count - 1) }
        for limit in [text.count / 2, text.count - 1] {
            let salvaged = Gzip.salvage(withSize(100), limit: limit)
            #expect(salvaged.text == text.prefix(limit) && salvaged.damage is Gzip.SizeLimitExceeded, "limit \(limit)")
        }
    }

    @Test func dataCutAnywhereInsideAMemberIsTruncated() throws {
        let text = Data((0..<500).map { "row \($0)\n" }.joined().utf8)
        let member = try Gzip.compress(text)
        let two = member + member
        for cut in Array(1..<member.count) + [member.count + 1, member.count + 10, two.count - 1] {
            let prefix = two.prefix(cut)
            #expect(Self.failure { try Gzip.decompress(prefix) } == "gzip: data is truncated", "cut at \(cut)")
            #expect(Self.failure { try Self.streamed(prefix, pieceSize: 97, outputSize: 1_000) } == "gzip: data is truncated", "cut at \(cut)")
            // Salvaged as gzip -d does: the text up to the cut, and the damage said.
            let (salvaged, damage) = Gzip.salvage(prefix)
            #expect((text + text).starts(with: salvaged) && damage.map { "\($0)" } == "gzip: data is truncated",
                    "cut at \(cut)")
        }
        // Past the last member, as much text as the member gave (zlib gives what it has decoded).
        #expect(Gzip.salvage(two.prefix(two.count - 20)).text.count > text.count)
        // Cut exactly between members, the data is whole.
        #expect(try Self.streamed(two.prefix(member.count), pieceSize: 97, outputSize: 1_000) == text)
    }

    /// A wrong check value is found by the call that writes the end of its member's text: that
    /// text is read, whatever the size of the buffer it goes to, and the damage said after it (as
    /// `gzip -d` writes the text and then complains). Once the text of that last call was lost: a
    /// small file read whole (a 64 KB buffer) lost every event, and the same file read in small
    /// pieces only its last (found by the fuzzer, Scripts/fuzz geojson).
    @Test func theTextBeforeAWrongCheckValueIsRead() throws {
        let text = Data((0..<500).map { "row \($0)\n" }.joined().utf8)
        var damaged = try Gzip.compress(text)
        damaged[damaged.count - 6] ^= 0xff   // the CRC
        let salvaged = Gzip.salvage(damaged)
        #expect(salvaged.text == text)
        #expect(salvaged.damage.map { "\($0)" } == "gzip: corrupt data (incorrect data check)")
        for (pieceSize, outputSize) in [(50, 7), (50, 1_000), (1 << 20, 1 << 16)] {
            var output = Data()
            let failure = Self.failure { try Self.streamed(damaged, pieceSize: pieceSize, outputSize: outputSize, into: &output); return output }
            #expect(failure == "gzip: corrupt data (incorrect data check)" && output == text, "pieces of \(pieceSize), output of \(outputSize): \(output.count) bytes")
        }
    }

    @Test func corruptDataAndEmptyInput() throws {
        var damaged = try Gzip.compress(Data((0..<500).map { "row \($0)\n" }.joined().utf8))
        damaged[damaged.count - 6] ^= 0xff   // the CRC
        #expect(Self.failure { try Self.streamed(damaged, pieceSize: 50, outputSize: 1_000) } == "gzip: corrupt data (incorrect data check)")
        #expect(Self.failure { try Self.streamed(Data("plain text".utf8), pieceSize: 50, outputSize: 1_000) } == "gzip: corrupt data (incorrect header check)")
        #expect(try Self.streamed(Data(), pieceSize: 50, outputSize: 1_000).isEmpty)
        #expect(try Gzip.decompress(Data()).isEmpty)
    }
}

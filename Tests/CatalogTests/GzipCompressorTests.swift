import Foundation
import QuakeCommon
import Testing
import TestSupport

/// `Gzip.Compressor`: pieces in, one gzip member in a file, the same bytes as `Gzip.compress`.
@Suite struct GzipCompressorTests {
    @Test(arguments: [1, 1_000, 65_536, 1 << 20])
    func streamedOutputEqualsOneShotCompression(pieceSize: Int) throws {
        // A real ComCat page (text that compresses like the GeoJSON zooms) and its gzip in one go.
        let text = try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-2.5_month-2025-10.geojson.gz")))
        let dir = TemporaryDirectory("gzip-compressor")
        let url = dir.path("streamed.gz")
        let gzip = try Gzip.Compressor(writingTo: url)
        for start in stride(from: 0, to: text.count, by: pieceSize) {
            try text.subdata(in: start..<min(start + pieceSize, text.count)).withUnsafeBytes { try gzip.write($0) }
        }
        try gzip.finish()
        let streamed = try Data(contentsOf: url)
        #expect(streamed == (try Gzip.compress(text)))
        #expect(try Gzip.decompress(streamed) == text)
    }

    @Test func nothingWrittenIsAnEmptyMember() throws {
        let dir = TemporaryDirectory("gzip-compressor")
        let url = dir.path("empty.gz")
        try Gzip.Compressor(writingTo: url).finish()
        #expect(try Data(contentsOf: url) == (try Gzip.compress(Data())))
    }

    @Test func anUnwritablePathIsNamed() {
        #expect(throws: Gzip.Failure.self) { try Gzip.Compressor(writingTo: URL(fileURLWithPath: "/nonexistent/dir/out.gz")) }
    }
}

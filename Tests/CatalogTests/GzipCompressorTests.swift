import Foundation
import QuakeCommon
import Testing
import TestSupport

/// `Gzip.Compressor`: pieces in, one gzip member in a file, the same bytes however the input is cut.
@Suite struct GzipCompressorTests {
    @Test func streamedOutputDoesNotDependOnThePieces() throws {
        // A real ComCat page: text that compresses like the GeoJSON zooms.
        let text = try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-2.5_month-2025-10.geojson.gz")))
        let dir = TemporaryDirectory("gzip-compressor")
        var outputs: [Data] = []
        for pieceSize in [1, 1_000, 65_536, 1 << 20] {
            let url = dir.path("streamed-\(pieceSize).gz")
            let gzip = try Gzip.Compressor(writingTo: url)
            for start in stride(from: 0, to: text.count, by: pieceSize) {
                try text.subdata(in: start..<min(start + pieceSize, text.count)).withUnsafeBytes { try gzip.write($0) }
            }
            try gzip.finish()
            outputs.append(try Data(contentsOf: url))
        }
        #expect(Set(outputs).count == 1)
        #expect(try Gzip.decompress(outputs[0]) == text)
    }

    @Test func nothingWrittenIsAnEmptyMember() throws {
        let dir = TemporaryDirectory("gzip-compressor")
        let url = dir.path("empty.gz")
        try Gzip.Compressor(writingTo: url).finish()
        #expect(try Gzip.decompress(Data(contentsOf: url)).isEmpty)
    }

    @Test func anUnwritablePathIsNamed() {
        #expect(throws: Gzip.Failure.self) { try Gzip.Compressor(writingTo: URL(fileURLWithPath: "/nonexistent/dir/out.gz")) }
    }
}

import Foundation
import QuakeCommon
import Testing
import TestSupport

/// `Gzip.compress`: whole buffers through libdeflate, read back by zlib.
@Suite struct GzipOneShotTests {
    @Test func everyLevelRoundTripsTheSameBytesEveryTime() throws {
        let text = try Gzip.decompress(Data(contentsOf: TestData.usgs("feed-2.5_month-2025-10.geojson.gz")))
        for level: Int32 in [1, 6, 12] {
            let once = try Gzip.compress(text, level: level)
            #expect(try Gzip.decompress(once) == text, "level \(level)")
            #expect(try Gzip.compress(text, level: level) == once, "level \(level)")
            #expect(once.count < text.count / 4, "level \(level)")
        }
    }

    @Test func emptyInputIsAnEmptyMember() throws {
        let member = try Gzip.compress(bytes: UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(Gzip.isCompressed(Data(member)))
        #expect(try Gzip.decompress(Data(member)).isEmpty)
    }

    @Test func anUnknownLevelIsNamed() {
        #expect(throws: Gzip.Failure.self) { try Gzip.compress(Data("x".utf8), level: 13) }
        do {
            _ = try Gzip.compress(Data("x".utf8), level: 13)
        } catch {
            #expect("\(error)".contains("level 13"))
        }
    }
}

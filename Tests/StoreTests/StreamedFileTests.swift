import Foundation
import QuakeCatalog
import QuakeStore
import Testing
import TestSupport

/// A file from `IndexSource.streamedFrom` bytes on is read a piece at a time and stored
/// exactly as when read whole; it is known by the SHA-256 of its bytes, so indexing it again
/// reads nothing.
@Suite struct StreamedFileTests {
    @Test func aStreamedFileIsStoredAsWhenReadWholeAndIsNotReadTwice() throws {
        let files = [TestData.usgs("feed-all_week-2020-06.geojson.gz"), TestData.usgs("query-m6-1973-2023.csv.gz")]
        let streamed = files.map { url -> IndexSource in
            var source = IndexSource.file(url)
            source.streamedFrom = 0
            return source
        }
        let viaStream = StoreFixture(), whole = StoreFixture()
        let first = try viaStream.index(streamed)
        let reference = try whole.index(files.map { IndexSource.file($0) })
        #expect(first.counts == reference.counts)
        #expect(first.counts.inserted > 8000)
        #expect(try viaStream.events() == whole.events())
        #expect(try viaStream.sql("SELECT source, position, reason FROM rejects ORDER BY 1, 2")
                == whole.sql("SELECT source, position, reason FROM rejects ORDER BY 1, 2"))
        #expect(try viaStream.value("SELECT rtreecheck('idx_events_geom')") == "ok")
        let again = try viaStream.index(streamed)
        #expect(again.sources.allSatisfy { $0.outcome == .alreadyIndexed } && again.counts == IndexCounts())
    }
}

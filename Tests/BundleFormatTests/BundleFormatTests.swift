import Foundation
import QuakeBundleFormat
import Testing

/// Issue 49.2: the formats' own rules (the TMS flip, where a delta goes).
@Suite struct BundleFormatTests {
    @Test func theTMSFlipCountsRowsFromTheSouthAndIsItsOwnInverse() {
        #expect(MBTiles.row(0, zoom: 0) == 0)
        #expect(MBTiles.row(0, zoom: 3) == 7)
        #expect(MBTiles.row(7, zoom: 3) == 0)
        for zoom in [1, 5, 14] {
            for y in [0, 1, (1 << zoom) / 2, (1 << zoom) - 1] {
                #expect(MBTiles.row(MBTiles.row(y, zoom: zoom), zoom: zoom) == y)
            }
        }
    }

    @Test func eachSyncedFileHasItsDeltaBesideTheOthers() {
        #expect(BundleFileName.tilesDelta(from: "v7") == "deltas/v7.mbtiles")
        #expect(BundleFileName.rowsDelta(from: "v7") == "deltas/v7.sqlite")
        #expect(BundleFileName.syncedFile(ofDelta: BundleFileName.tilesDelta(from: "v7")) == BundleFileName.tiles)
        #expect(BundleFileName.syncedFile(ofDelta: BundleFileName.rowsDelta(from: "v7")) == BundleFileName.appDatabase)
        #expect(BundleFileName.syncedFile(ofDelta: "deltas/v7.json") == nil)
    }
}

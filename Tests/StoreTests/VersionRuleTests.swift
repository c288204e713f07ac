import Foundation
import QuakeCatalog
import QuakeStore
import Testing

/// The store's rules on constructed changes: newest `updated` wins, ties change
/// nothing, id changes merge, deletions leave tombstones, resurrections return.
@Suite struct VersionRuleTests {
    @Test func aNewerVersionReplacesTheStoredOne() throws {
        let f = StoreFixture()
        #expect(try f.index(quake("ci1", updated: 1, mag: 2.5)).inserted == 1)
        var newer = quake("ci1", updated: 2, mag: 3.1)
        newer.status = "reviewed"
        newer.place = "moved"
        #expect(try f.index(newer).updated == 1)
        let stored = try f.events()
        #expect(stored.count == 1)
        #expect(stored["ci1"] == newer)
    }

    @Test func anOlderVersionArrivingLaterChangesNothing() throws {
        let f = StoreFixture()
        try f.index(quake("ci1", updated: 5, mag: 3.0))
        let counts = try f.index(quake("ci1", updated: 4, mag: 9.9))
        #expect(counts.unchanged == 1 && counts.changed == 0)
        #expect(try f.events()["ci1"]?.mag == 3.0)
    }

    @Test func theSameVersionTwiceChangesNothing() throws {
        let f = StoreFixture()
        let event = quake("ci1", updated: 5)
        let plain = try f.page([event])
        try f.index([plain])
        let row = try f.sql("SELECT rowid, * FROM events")
        // In a page with other bytes (another event beside it) the version meets itself.
        let other = try f.page([event, quake("ci2", updated: 1)])
        let counts = try f.index([other]).counts
        #expect(counts.unchanged == 1 && counts.inserted == 1)
        #expect(try f.sql("SELECT rowid, * FROM events WHERE id = 'ci1'") == row)
        // The same body again is not even read: not as the same file, not gzip-compressed.
        let again = try f.index([other, f.page([event], gzip: true)])
        #expect(again.sources.map(\.outcome) == [.alreadyIndexed, .alreadyIndexed] && again.counts == IndexCounts())
        #expect(try f.value("SELECT count(*) FROM sources") == "2")
    }

    @Test func anEqualUpdatedWithOtherContentKeepsTheFirstIndexed() throws {
        let f = StoreFixture()
        try f.index(quake("ci1", updated: 5, mag: 3.0))
        #expect(try f.index(quake("ci1", updated: 5, mag: 3.4)).unchanged == 1)
        #expect(try f.events()["ci1"]?.mag == 3.0)
    }

    @Test func aPreferredIDChangeMergesIntoOneRowUnderTheNewID() throws {
        let f = StoreFixture()
        try f.index(quake("ci40123456", updated: 1))
        let renamed = quake("us7000abcd", updated: 2, ids: ["ci40123456", "us7000abcd"], mag: 4.1)
        #expect(try f.index(renamed).merged == 1)
        #expect(try f.events() == ["us7000abcd": renamed])
        try f.read { (store: EventStore) throws in
            #expect(try store.preferredID(of: "ci40123456") == "us7000abcd")
            #expect(try store.event(id: "ci40123456") == renamed)
        }
        // The old id's older version, arriving late, stays out.
        #expect(try f.index(quake("ci40123456", updated: 1, mag: 1.0)).unchanged == 1)
        #expect(try f.events().count == 1)
    }

    @Test func anIDChangeSeenNewestFirstStillGivesOneRow() throws {
        let f = StoreFixture()
        let renamed = quake("us7000abcd", updated: 2, ids: ["ci40123456", "us7000abcd"])
        try f.index(renamed)
        // The old id alone, older: it is the same quake (its id is among `ids`), and older.
        #expect(try f.index(quake("ci40123456", updated: 1)).unchanged == 1)
        #expect(try f.events() == ["us7000abcd": renamed])
    }

    @Test func theOldIDsNewerVersionAfterTheRenameTakesTheRowBack() throws {
        let f = StoreFixture()
        try f.index(quake("a1", updated: 1))
        try f.index(quake("b1", updated: 2, ids: ["a1", "b1"]))
        let back = quake("a1", updated: 3, mag: 5.0)
        #expect(try f.index(back).merged == 1)
        #expect(try f.events() == ["a1": back])
        try f.read { (store: EventStore) throws in
            #expect(try store.preferredID(of: "b1") == "a1")
        }
    }

    @Test func aVersionJoiningTwoStoredEventsMergesThem() throws {
        let f = StoreFixture()
        try f.index(quake("a1", updated: 1), quake("c1", updated: 2, longitude: -117.4))
        let joined = quake("b1", updated: 3, ids: ["a1", "b1", "c1"])
        #expect(try f.index(joined).merged == 1)
        #expect(try f.events() == ["b1": joined])
        try f.read { (store: EventStore) throws in
            for id in ["a1", "b1", "c1"] { #expect(try store.preferredID(of: id) == "b1") }
        }
        #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "1")
    }

    @Test func anOlderVersionJoiningTwoStoredEventsLeavesTheNewestStanding() throws {
        let f = StoreFixture()
        let newest = quake("c1", updated: 5)
        try f.index(quake("a1", updated: 1), newest)
        #expect(try f.index(quake("b1", updated: 3, ids: ["a1", "b1", "c1"])).merged == 1)
        #expect(try f.events() == ["c1": newest])
        try f.read { (store: EventStore) throws in
            for id in ["a1", "b1", "c1"] { #expect(try store.preferredID(of: id) == "c1") }
        }
    }

    /// Two live quakes that both list one secondary id (seen in an April 2014 all_week feed:
    /// a M2.9 and a M4.1 six hours apart, one `at…` tsunami-centre id on both) stay two
    /// quakes; the id belongs to the claimant with the newest `updated`, and moves when a
    /// newer claimant comes (issue 16). Both in one page and in two, fresh and incremental.
    @Test(arguments: [true, false])
    func twoQuakesSharingASecondaryIDStayTwo(onePage: Bool) throws {
        let f = StoreFixture()
        var small = quake("ak11235813", updated: 10, ids: ["ak11235813", "at00n3xyz1"], mag: 2.9)
        small.time = 1_397_000_000_000
        var large = quake("us20001abc", updated: 20, ids: ["us20001abc", "at00n3xyz1"], mag: 4.1, longitude: -150.2, latitude: 61.1)
        large.time = 1_397_021_600_000
        if onePage { try f.index(small, large) } else { try f.index(small); try f.index(large) }
        #expect(try f.events() == ["ak11235813": small, "us20001abc": large])
        try f.read { (store: EventStore) throws in #expect(try store.preferredID(of: "at00n3xyz1") == "us20001abc") }
        // A newer version of the small one, still claiming the id, takes it; nothing merges.
        var revised = small
        revised.updated = 30
        revised.mag = 3.0
        let counts = try f.index(revised)
        #expect(counts.updated == 1 && counts.merged == 0)
        #expect(try f.events() == ["ak11235813": revised, "us20001abc": large])
        try f.read { (store: EventStore) throws in
            #expect(try store.preferredID(of: "at00n3xyz1") == "ak11235813")
            #expect(try store.preferredID(of: "us20001abc") == "us20001abc")
        }
        // A claimant older than the id's holder takes nothing from it.
        var older = large
        older.updated = 25
        #expect(try f.index(older).updated == 1)
        try f.read { (store: EventStore) throws in #expect(try store.preferredID(of: "at00n3xyz1") == "ak11235813") }
        #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "2")
    }

    @Test func aDeletionRemovesTheEventAndLeavesATombstone() throws {
        let f = StoreFixture()
        try f.index(quake("nc1", updated: 1), quake("nc2", updated: 1))
        let source = try f.page([deletion("nc1", updated: 2)])
        #expect(try f.index([source]).counts.deleted == 1)
        #expect(try Set(f.events().keys) == ["nc2"])
        try f.read { (store: EventStore) throws in
            #expect(try store.tombstone(id: "nc1") == Tombstone(id: "nc1", ids: ["nc1"], updated: 2, source: source.name))
            #expect(try store.event(id: "nc1") == nil)
            #expect(try store.statistics().highWaterMark == 2)
        }
        #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "1")
    }

    @Test func anOlderPageCannotResurrectADeletedEvent() throws {
        let f = StoreFixture()
        try f.index(quake("nc1", updated: 1))
        try f.index(deletion("nc1", updated: 3))
        #expect(try f.index(quake("nc1", updated: 2, mag: 1.1)).unchanged == 1)
        #expect(try f.index(quake("nc1", updated: 3, mag: 1.2)).unchanged == 1)  // a tie: the deletion stands
        #expect(try f.events().isEmpty)
    }

    @Test func aNewerVersionBringsADeletedEventBack() throws {
        let f = StoreFixture()
        try f.index(quake("nc1", updated: 1))
        try f.index(deletion("nc1", updated: 2))
        let back = quake("nc1", updated: 3, mag: 2.2)
        #expect(try f.index(back).inserted == 1)
        #expect(try f.events() == ["nc1": back])
        try f.read { (store: EventStore) throws in
            #expect(try store.tombstone(id: "nc1") == nil)
            #expect(try store.statistics().tombstones == 0)
        }
    }

    @Test func aDeletionOfAnUnseenEventKeepsItsOlderVersionsOut() throws {
        let f = StoreFixture()
        #expect(try f.index(deletion("hv1", updated: 10)).deleted == 1)
        #expect(try f.index(quake("hv1", updated: 9)).unchanged == 1)
        #expect(try f.events().isEmpty)
        try f.read { (store: EventStore) throws in #expect(try store.statistics().tombstones == 1) }
    }

    @Test func aDeletionUnderAnotherIDOfTheSameQuakeRemovesIt() throws {
        let f = StoreFixture()
        try f.index(quake("us7000abcd", updated: 2, ids: ["ci40123456", "us7000abcd"]))
        #expect(try f.index(deletion("ci40123456", updated: 3)).deleted == 1)
        #expect(try f.events().isEmpty)
        try f.read { (store: EventStore) throws in
            #expect(try store.preferredID(of: "us7000abcd") == "ci40123456")
            #expect(try store.tombstone(id: "us7000abcd")?.updated == 3)
        }
        // …and the quake comes back under its later id with a newer version: one row.
        let back = quake("us7000abcd", updated: 4, ids: ["ci40123456", "us7000abcd"])
        #expect(try f.index(back).inserted == 1)
        #expect(try f.events() == ["us7000abcd": back])
        try f.read { (store: EventStore) throws in #expect(try store.statistics().tombstones == 0) }
    }

    @Test func versionsWithinOnePageFollowTheSameRules() throws {
        let f = StoreFixture()
        let counts = try f.index(quake("x1", updated: 1), quake("x1", updated: 3, mag: 3.3), quake("x1", updated: 2, mag: 2.2),
                                 deletion("y1", updated: 5), quake("y1", updated: 4))
        #expect(counts == {
            var expected = IndexCounts()
            expected.inserted = 1; expected.updated = 1; expected.unchanged = 2; expected.deleted = 1
            return expected
        }())
        #expect(try f.events().mapValues(\.mag) == ["x1": 3.3])
    }

    @Test func sourcesAreAppliedInTheOrderGiven() throws {
        let f = StoreFixture()
        let first = try f.page([quake("x1", updated: 7, mag: 1.0)])
        let second = try f.page([quake("x1", updated: 7, mag: 2.0)])
        try f.index([second, first])
        #expect(try f.events()["x1"]?.mag == 2.0)
    }
}

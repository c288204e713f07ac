import QuakeSynthetic
import Foundation
import QuakeCatalog
import QuakeStore
import Testing

/// Random histories of updates, stale versions, ties, preferred-id changes (both
/// orders), merges and deletions, indexed in one fresh build and page by page, must
/// both equal the reference model, and agree on every id's preferred id.
@Suite struct DifferentialTests {
    /// A seeded history: `pages` pages of versions of a small set of quakes, so that
    /// versions meet often.
    static func history(seed: UInt64, pages: Int, perPage: Int) -> [[QuakeEvent]] {
        var random = SeededRandom(seed: seed)
        var quakes: [[String]] = (0..<40).map { ["ev\($0)"] }   // each quake's ids, oldest first
        var result: [[QuakeEvent]] = []
        for _ in 0..<pages {
            var page: [QuakeEvent] = []
            for _ in 0..<perPage {
                let q = Int(random.next() % UInt64(quakes.count))
                let roll = random.unit()
                if roll < 0.08 {
                    quakes[q].append("ev\(q)x\(quakes[q].count)")            // a preferred-id change
                } else if roll < 0.12, quakes.count > 2 {
                    let other = (q + 1) % quakes.count                      // two quakes found to be one
                    quakes[q] += quakes[other]
                }
                let ids = quakes[q]
                // The preferred id is usually the newest, sometimes an older one (changes both ways).
                let preferred = random.chance(0.8) ? ids.last! : ids[Int(random.next() % UInt64(ids.count))]
                // A subset of the ids: versions do not always list them all.
                let listed = ids.filter { $0 == preferred || random.chance(0.7) }
                let updated = Int64(random.next() % 50)                     // small range: many ties and stale versions
                let version = random.chance(0.1)
                    ? deletion(preferred, updated: updated, ids: listed)
                    : quake(preferred, updated: updated, ids: listed, mag: Double(random.next() % 60) / 10,
                            longitude: random.unit() * 360 - 180, latitude: random.unit() * 180 - 90)
                page.append(version)
            }
            result.append(page)
        }
        return result
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomHistoriesGiveTheReferenceCatalogAtOnceAndPageByPage(seed: UInt64) throws {
        let pages = Self.history(seed: seed, pages: 12, perPage: 60)
        var reference = ReferenceCatalog()
        for page in pages { reference.apply(page) }

        let atOnce = StoreFixture()
        let sources = try pages.map { try atOnce.page($0) }
        let built = try atOnce.index(sources)
        #expect(built.builtAfresh)
        let pageByPage = StoreFixture()
        var counts = IndexCounts()
        for page in pages {
            let c = try pageByPage.index([pageByPage.page(page)]).counts
            counts.merged += c.merged; counts.deleted += c.deleted; counts.updated += c.updated; counts.inserted += c.inserted
        }
        // The history exercises every rule, in both modes.
        for c in [built.counts, counts] { #expect(c.merged > 5 && c.deleted > 5 && c.updated > 5 && c.inserted > 5, "\(c)") }

        #expect(try atOnce.events() == reference.events)
        #expect(try pageByPage.events() == reference.events)
        let mapping = "SELECT id, preferred FROM event_ids ORDER BY id"
        #expect(try atOnce.sql(mapping) == pageByPage.sql(mapping))
        #expect(try atOnce.sql("SELECT id, updated FROM tombstones ORDER BY id") == pageByPage.sql("SELECT id, updated FROM tombstones ORDER BY id"))
        for f in [atOnce, pageByPage] {
            // Every id points at something that exists, and every row and tombstone is pointed at by its own id.
            #expect(try f.value("SELECT count(*) FROM event_ids WHERE preferred NOT IN (SELECT id FROM events UNION SELECT id FROM tombstones)") == "0")
            #expect(try f.value("SELECT count(*) FROM (SELECT id FROM events UNION SELECT id FROM tombstones) WHERE id NOT IN (SELECT id FROM event_ids WHERE preferred = id)") == "0")
            #expect(try f.value("SELECT count(*) FROM events WHERE id IN (SELECT id FROM tombstones)") == "0")
            #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok")
            #expect(try f.value("SELECT count(*) FROM idx_events_geom") == "\(reference.events.count)")
        }
    }

    /// A chain of 10,000 preferred-id changes, each version naming the one before, into an
    /// existing store (issue 46: each link moved every id of the group, 70 s in all; now each
    /// id moves once), with a name taken back in the middle (a version of an old id listing only
    /// itself, which leaves the chain): the same store as a fresh build of the same versions.
    @Test func aLongChainOfPreferredIDChangesIntoAnExistingStoreEqualsAFreshBuild() throws {
        let links = 10_000
        var chain = (1...links).map { k in quake("ch\(k)", updated: Int64(k), ids: ["ch\(k - 1)", "ch\(k)"]) }
        chain.insert(quake("ch5000", updated: Int64(links + 1), ids: ["ch5000"]), at: 7_000)
        let fresh = StoreFixture()
        #expect(try fresh.index([fresh.page([quake("ch0", updated: 0)]), fresh.page(chain)]).builtAfresh)
        let existing = StoreFixture()
        _ = try existing.index([existing.page([quake("ch0", updated: 0)])])
        let summary = try existing.index([existing.page(chain)])
        #expect(!summary.builtAfresh && summary.counts.merged == links && summary.counts.inserted == 1, "\(summary.counts)")
        for query in ["SELECT id, preferred FROM event_ids ORDER BY id", "SELECT id, ids, updated FROM events ORDER BY id", "SELECT id FROM tombstones"] {
            #expect(try fresh.sql(query) == existing.sql(query), "\(query)")
        }
        #expect(try existing.sql("SELECT id FROM events ORDER BY id") == ["ch10000", "ch5000"])
        #expect(try existing.value("SELECT count(*) FROM event_ids WHERE preferred = 'ch10000'") == "\(links)")
        #expect(try existing.value("SELECT preferred FROM event_ids WHERE id = 'ch5000'") == "ch5000")
    }
}

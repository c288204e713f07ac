import QuakeSynthetic
import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// One transaction per source: a failure or a kill leaves the store as it was
/// before that source; a fresh build or a rebuild is never visible half done.
@Suite struct CrashSafetyTests {
    @Test func aSourceThatFailsHalfwayLeavesTheStoreAsItWas() throws {
        let f = StoreFixture()
        try f.index(quake("a1", updated: 1), quake("a2", updated: 1))
        // A failure the store raises after some of the source's rows are written.
        _ = try f.sql("CREATE TRIGGER fail BEFORE INSERT ON events WHEN NEW.id = 'boom' BEGIN SELECT RAISE(ABORT, 'injected failure'); END;")
        let before = try f.snapshot()
        let bad = try f.page([quake("a1", updated: 2, mag: 6), quake("b1", updated: 1), deletion("a2", updated: 2),
                              quake("boom", updated: 1), quake("b2", updated: 1)])
        #expect { try f.index([bad]) } throws: { "\($0)".contains(bad.name) && "\($0)".contains("injected failure") && "\($0)".contains("nothing of it was stored") }
        #expect(try f.snapshot() == before)
        #expect(try f.value("PRAGMA integrity_check") == "ok")
        // Once the cause is gone, the same source goes in whole.
        _ = try f.sql("DROP TRIGGER fail;")
        let summary = try f.index([bad])
        #expect(summary.counts.inserted == 3 && summary.counts.updated == 1 && summary.counts.deleted == 1)
    }

    @Test func aKilledIndexLeavesWholeSourcesOnlyAndTheNextRunCompletesIt() async throws {
        let f = StoreFixture()
        var catalog = SyntheticCatalog(seed: 11)
        try f.index([f.page(catalog.events(2_000))])
        let events = catalog.events(24_000)
        let pages = try FeatureCollectionPages.write(events, pageSize: 2_000, to: f.directory.path("pages"))
        let workspace = f.directory.url
        var random = SeededRandom(seed: 5)
        var indexed: Set<String> = []
        for trial in 0..<3 {
            // Killed once one of the next three pages is stored (pages go in order, one transaction
            // each), with more pages still to come.
            let done = pages.filter { indexed.contains($0.path) }.count
            let target = min(done + Int(random.unit() * 3), pages.count - 2)
            let run = try await Self.run(["index", "--quiet", "--workspace", workspace.path] + pages.flatMap { ["--from", $0.path] },
                                         killedOnceStored: events[target * 2_000].id, in: f.store)
            #expect(run.killed, "trial \(trial)")

            #expect(try f.value("PRAGMA integrity_check") == "ok", "trial \(trial)")
            #expect(try f.value("SELECT rtreecheck('idx_events_geom')") == "ok", "trial \(trial)")
            indexed = Set(try f.sql("SELECT name FROM sources WHERE kind = 'file'"))
            let stored = Set(try f.events().keys)
            for (page, slice) in zip(pages, stride(from: 0, to: events.count, by: 2_000).map { events[$0..<($0 + 2_000)] }) {
                let present = slice.filter { stored.contains($0.id) }.count
                #expect(present == (indexed.contains(page.path) ? slice.count : 0), "trial \(trial): \(page.lastPathComponent) is \(present) of \(slice.count)")
            }
        }
        try f.index(pages.map { IndexSource.file($0) })
        #expect(try f.events().count == 26_000)
        #expect(try f.value("SELECT CheckSpatialIndex('events', 'geom')") == "1")
    }

    @Test func aKilledFreshBuildLeavesNoStoreAndNoDebrisAfterTheNextRun() async throws {
        let f = StoreFixture()
        let pages = try FeatureCollectionPages.write(SyntheticCatalog(seed: 3).prefix(20_000), pageSize: 2_000, to: f.directory.path("pages"))
        let storeDirectory = f.store.deletingLastPathComponent()
        // Killed once the new store's scratch file exists: the build is under way.
        _ = try await QuakeBakeCLI.run(["index", "--quiet", "--workspace", f.directory.url.path] + pages.flatMap { ["--from", $0.path] }, killedWhen: {
            ((try? FileManager.default.contentsOfDirectory(atPath: storeDirectory.path)) ?? []).contains { $0.hasSuffix(AtomicFile.temporarySuffix) }
        })
        let left = try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path)
        // Either nothing is visible yet, or (a fast machine) the complete store.
        if FileManager.default.fileExists(atPath: f.store.path) {
            #expect(try f.events().count == 20_000)
        } else {
            #expect(left.allSatisfy { $0.contains(AtomicFile.temporarySuffix) }, "\(left)")
        }
        try f.index(pages.prefix(1).map { IndexSource.file($0) })
        let after = try FileManager.default.contentsOfDirectory(atPath: storeDirectory.path)
        #expect(!after.contains { $0.contains(AtomicFile.temporarySuffix) }, "\(after)")
    }

    /// Runs `quake-bake arguments…` and SIGKILLs it as soon as the event `id` is in the store at `store`.
    private static func run(_ arguments: [String], killedOnceStored id: String, in store: URL) async throws -> ChildProcess.Interruption {
        // Read only by the polling thread while this function waits for it.
        nonisolated(unsafe) let probe = try EventStore(opening: store)
        defer { try? probe.close() }
        return try await QuakeBakeCLI.run(arguments, killedWhen: { (try? probe.event(id: id)) != nil })
    }

    @Test func aRebuildSwapsInACompleteNewStore() throws {
        let f = StoreFixture()
        try f.index(quake("old1", updated: 1), quake("old2", updated: 1))
        try f.index(quake("old3", updated: 1))   // leaves the store in WAL mode with a log
        let reader = try EventStore(opening: f.store)
        let summary = try f.rebuild([f.page([quake("new1", updated: 1)])])
        #expect(summary.builtAfresh)
        #expect(try Set(f.events().keys) == ["new1"])
        // A reader that opened the old store before the swap still reads the old store whole.
        #expect(try reader.statistics().events == 3)
        try reader.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: f.store.deletingLastPathComponent().path)
        #expect(!names.contains { $0.contains(AtomicFile.temporarySuffix) }, "\(names)")
        #expect(try f.value("PRAGMA journal_mode") == "wal")
        #expect(try f.value("PRAGMA integrity_check") == "ok")
    }
}

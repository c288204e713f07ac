import Foundation
import QuakeCommon
@testable import QuakeBundles
import Testing
import TestSupport

/// The export as a plan: what it builds on is one value, decided before any stage runs, and the
/// stages are declared with what they need; a plan whose stage needs what no earlier stage makes
/// is refused.
@Suite struct ExportPlanTests {
    static let sample = "feed-all_week-2020-06.geojson.gz"

    /// The basis and plan an export of `store` into `out` would run (nothing is run).
    private func plan(_ store: TestStore, out: URL, _ configure: (inout ExportOptions) -> Void = { _ in }) throws -> (ExportBasis, [String]) {
        var options = ExportOptions()
        options.thinning.maxZoom = 7
        configure(&options)
        let scratch = ExportScratch()
        defer { scratch.cleanUp() }
        let run = try ExportRun(store: store.url, out: out, options: options, scratch: scratch, progress: Progress.silent,
                                logger: ExportHelpers.silentLogger)
        let plan = try ExportPlan.export(options: options, basis: ExportBasis.decide(options: options, run: run))
        return (plan.basis, plan.stages.map { $0.beside ? "\($0.name) (beside)" : $0.name })
    }

    private static let building = ["feature-ids (beside)", "app-database (beside)", "order", "thin", "event-cache (beside)", "archives", "publish"]

    @Test func aFullExportBuildsOnNothing() throws {
        let dir = TemporaryDirectory("plan-full")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let (basis, stages) = try plan(store, out: dir.path("bundles"))
        #expect(basis.previous == nil)
        #expect(stages == ["read", "unchanged", "version", "deltas"] + Self.building)
        // Without deltas, no deltas stage.
        #expect(try plan(store, out: dir.path("bundles")) { $0.deltas = false }.1 == ["read", "unchanged", "version"] + Self.building)
        // Over a current version, --full builds on nothing either.
        _ = try ExportHelpers.export(store, to: dir.path("bundles"))
        let (full, fullStages) = try plan(store, out: dir.path("bundles")) { $0.reuseTiles = false }
        #expect(full.previous == nil && fullStages == stages)
    }

    @Test func anIncrementalExportBuildsOnTheCurrentVersion() throws {
        let dir = TemporaryDirectory("plan-incremental")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let first = try ExportHelpers.export(store, to: dir.path("bundles"))
        // The store as it was: the previous version's files are copied and checked after the read (most likely, nothing changed).
        let (same, sameStages) = try plan(store, out: dir.path("bundles"))
        let previous = try #require(same.previous)
        #expect(previous.directory.resolvingSymlinksInPath() == first.directory.resolvingSymlinksInPath())
        #expect(previous.hasCache && !previous.storeMoved)
        #expect(sameStages == ["read", "unchanged", "copy-previous", "check-previous (beside)", "version", "deltas"] + Self.building)
        // A newer event: the store moved, so they are copied and checked beside the read.
        var event = try #require(try store.events().values.min { $0.id < $1.id })
        event.updated = first.highWaterMark + 1
        event.mag = (event.mag ?? 1) + 0.1
        try store.upsert([event])
        let (moved, movedStages) = try plan(store, out: dir.path("bundles"))
        #expect(moved.previous?.storeMoved == true && moved.previous?.hasCache == true)
        #expect(movedStages == ["copy-previous", "check-previous (beside)", "read", "unchanged", "version", "deltas"] + Self.building)
        // Without its event cache, the basis is still the current version (its tiles are reused); the read is whole.
        try FileManager.default.removeItem(at: dir.path("bundles/.export-cache/events.bin"))
        let (uncached, _) = try plan(store, out: dir.path("bundles"))
        #expect(uncached.previous?.hasCache == false)
        // Planning ran nothing (the current version is still the first); the export then reads the whole selection.
        #expect(try #require(same.previous).directory.lastPathComponent == BundlePublisher(out: dir.path("bundles")).current()?.lastPathComponent)
        let second = try ExportHelpers.export(store, to: dir.path("bundles"))
        #expect(second.changed && second.rowsRead == second.events && second.events == first.events)
    }

    @Test func aStageThatNeedsWhatNoEarlierStageMakesIsRefused() throws {
        func refusal(_ stages: [ExportStage]) -> String? {
            do {
                _ = try ExportPlan(basis: .fresh, stages: stages)
                return nil
            } catch {
                return ErrorText.message(error)
            }
        }
        // The points are ordered after the read, not before.
        let early = try #require(refusal([ExportStage.order, .read(.fresh), .unchanged, .version(.fresh), .featureIDs]))
        #expect(early.contains("stage order needs read"), "\(early)")
        #expect(refusal([ExportStage.read(.fresh), .version(.fresh), .featureIDs, .order]) == nil)
        // The app database awaits the points, made by a stage after it: only a stage running beside may.
        #expect(refusal([ExportStage.read(.fresh), .version(.fresh), .featureIDs, .appDatabase(deltas: false)])?.contains("awaits points") == true)
        let waiting = ExportStage("waits", awaits: [.points]) { _ in .next }
        #expect(refusal([ExportStage.read(.fresh), .version(.fresh), .featureIDs, .order, waiting])?.contains("must run beside") == true)
        // The tiles and points are let go after the archives: a stage after them cannot need them.
        let late = ExportStage("late", needs: [.points]) { _ in .next }
        let released = [ExportStage.read(.fresh), .version(.fresh), .featureIDs, .order, .thin(deltas: false), .archives, late]
        #expect(refusal(released)?.contains("stage late needs points, which a stage before it released") == true)
        #expect(refusal(Array(released.dropLast())) == nil)
        // A product made twice.
        #expect(refusal([ExportStage.read(.fresh), .read(.fresh)])?.contains("read is made by two stages") == true)
    }

    @Test func aStageThatDoesNotMakeWhatItDeclaresFailsTheExport() throws {
        let dir = TemporaryDirectory("plan-liar")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let options = ExportOptions()
        let scratch = ExportScratch()
        defer { scratch.cleanUp() }
        let run = try ExportRun(store: store.url, out: dir.path("bundles"), options: options, scratch: scratch, progress: Progress.silent,
                                logger: ExportHelpers.silentLogger)
        let liar = ExportStage("liar", needs: [.read], produces: [.version]) { _ in .next }
        let plan = try ExportPlan(basis: .fresh, stages: [.read(.fresh), liar])
        var failure: String?
        do {
            _ = try plan.run(run)
        } catch {
            failure = ErrorText.message(error)
        }
        #expect(failure?.contains("stage liar did not make version") == true, "\(String(describing: failure))")
        // What it did not make fails for whoever waits for it, instead of waiting forever.
        #expect(throws: (any Error).self) { _ = try run.products.value(.version) as VersionPlan }
        // The read did run: its product is there, the events of the sample.
        let read: ExportRead = try run.products.value(.read)
        #expect(read.table.count > 1000)
    }

    @Test func aStageBesideTakesWhatALaterStageReleasedBeforeItWasTaken() throws {
        let dir = TemporaryDirectory("plan-late-taker")
        let store = try TestStore(workspace: dir.url, samples: [Self.sample])
        let scratch = ExportScratch()
        defer { scratch.cleanUp() }
        let run = try ExportRun(store: store.url, out: dir.path("bundles"), options: ExportOptions(), scratch: scratch, progress: Progress.silent,
                                logger: ExportHelpers.silentLogger)
        // The stage beside takes the read only once a stage after the releaser has run: the read is
        // released by then, and is still there for it.
        let lateTaker = ExportStage("late-taker", needs: [.read], awaits: [.deltaBases], produces: [.featureIDs], beside: true) { context in
            context.await(.deltaBases)
            let read: ExportRead = try context.need(.read)
            context.make(.featureIDs, read.table.count)
            return .next
        }
        let releaser = ExportStage("releaser", needs: [.read], produces: [.version], releases: [.read]) { context in
            context.make(.version, 0)
            return .next
        }
        let after = ExportStage("after", needs: [.version], produces: [.deltaBases]) { context in
            context.make(.deltaBases, 0)
            return .next
        }
        let end = ExportStage("end", needs: [.featureIDs]) { context in
            let _: Int = try context.need(.featureIDs)
            return .next
        }
        let plan = try ExportPlan(basis: .fresh, stages: [.read(.fresh), lateTaker, releaser, after, end])
        #expect(throws: (any Error).self) { _ = try plan.run(run) }  // no stage of this plan finishes an export
        let taken: Int = try run.products.value(.featureIDs)
        #expect(taken > 1000, "the stage beside read \(taken) events")
    }
}

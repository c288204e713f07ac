import Foundation
import QuakeBundleFormat
import QuakeCommon
import QuakeTiles

/// The points in tile order and the events' feature ids (product `points`).
struct OrderedPoints {
    let points: PointSet
    let featureIDs: FeatureIDs
}

/// The app database written, and the rows deltas that could not be made (product `appDatabase`).
struct AppDatabaseDone {
    let digest: String
    let deltaFailures: [DeltaWriter.Failure]
}

/// The stages that make the new version's files.
extension ExportStage {
    /// Assigns the feature ids (the app database's rowids) on a core of its own while the points are ordered.
    static var featureIDs: ExportStage {
        ExportStage("feature-ids", needs: [.read], produces: [.featureIDs], beside: true) { context in
            let read: ExportRead = try context.need(.read)
            context.make(.featureIDs, FeatureID.assign(read.table))
            return .next
        }
    }

    /// Writes the app database (patching the previous version's copy when the version builds on it),
    /// then its rows deltas, beside the ordering, thinning and archives. It waits for the feature
    /// ids, and packs its R-tree once the points are ordered (both at once took a whole-catalog
    /// export past its memory budget).
    static func appDatabase(deltas: Bool) -> ExportStage {
        ExportStage("app-database", needs: [.read, .version, .featureIDs] + (deltas ? [.deltaBases] : []), awaits: [.points],
                    produces: [.appDatabase], beside: true) { context in
            let run = context.run, read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let table = read.table
            let bases: [DeltaWriter.Base] = try context.need(.deltaBases, absent: [])
            let (digest, touched) = try AppDatabaseWriter.write(store: run.store, selection: run.options.selection, table: table,
                                                                featureIDs: try context.need(.featureIDs),
                                                                info: .init(bundleVersion: read.bundleVersion, highWaterMark: run.highWaterMark,
                                                                            events: table.count, recentSince: version.recent?.since),
                                                                details: read.details, previous: version.previousDatabase,
                                                                to: version.directory.appendingPathComponent(BundleFileName.appDatabase),
                                                                packingMayStart: { context.await(.points) },
                                                                logger: run.logger)
            let started = Stopwatch.threadCPUSeconds()
            let failures = DeltaWriter.writeRows(into: version.directory, from: bases,
                                                 touched: touched.flatMap { rows in run.current.map { ($0, rows) } })
            if !bases.isEmpty {
                let compared = touched.map { "the \(Format.count($0.rowids.count + $0.ids.count, "row")) the patch touched and those of the current version's deltas" }
                run.logger.debug("wrote the rows deltas from \(Format.count(bases.count, "version")), comparing \(compared ?? "every row"): CPU \(String(format: "%.3f", Stopwatch.threadCPUSeconds() - started)) s")
            }
            context.make(.appDatabase, AppDatabaseDone(digest: digest, deltaFailures: failures))
            return .next
        }
    }

    /// Orders the points (with a recent layer, only the history), then waits for the feature ids.
    static var order: ExportStage {
        ExportStage("order", needs: [.read, .version, .featureIDs], produces: [.points]) { context in
            let run = context.run, read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let ordered = try run.stopwatch.measure("ordered the points") { () -> OrderedPoints in
                let points = PointSet(table: read.table, buildTimeOrder: run.options.thinning.stride > 1, including: version.recent?.history)
                let featureIDs: FeatureIDs = try context.need(.featureIDs)
                FreedMemory.release()
                run.spill?.releaseResident()
                return OrderedPoints(points: points, featureIDs: featureIDs)
            }
            context.make(.points, ordered)
            return .next
        }
    }

    /// Thins the events and makes the tiles (see `BundleBuilder.thin`).
    static func thin(deltas: Bool) -> ExportStage {
        ExportStage("thin", needs: [.read, .version, .points] + (deltas ? [.deltaBases] : []), produces: [.thinned, .minZooms]) { context in
            let run = context.run, read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let ordered: OrderedPoints = try context.need(.points)
            let job = BundleBuilder.Job(read: read.result, points: ordered.points, featureIDs: ordered.featureIDs, options: run.options,
                                        directory: version.directory, recent: version.recent, details: read.details, state: version.state,
                                        deltaBases: try context.need(.deltaBases, absent: []), tilesBase: version.tilesBase,
                                        previousMBTiles: version.previousMBTiles)
            let thinned = try BundleBuilder.thin(job, progress: run.progress, stopwatch: &run.stopwatch)
            context.make(.minZooms, thinned.cacheUpdate)
            context.make(.thinned, thinned)
            return .next
        }
    }

    /// Writes the event cache for the next export (each event's minzoom, the moved feature ids)
    /// beside the archives; put in place once the version is published.
    static var eventCache: ExportStage {
        ExportStage("event-cache", needs: [.read, .version, .minZooms], produces: [.eventCache], beside: true) { context in
            let run = context.run, read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let update: BundleBuilder.CacheUpdate = try context.need(.minZooms)
            try EventCache.write(version: version.final.lastPathComponent, options: run.options, snapshot: read.result.snapshot,
                                 minZoom: update.minZoom, movedKeys: update.movedKeys, to: version.cacheTemporary)
            context.make(.eventCache, ())
            return .next
        }
    }

    /// Writes the archives and every other file but the app database and the manifest (see
    /// `BundleBuilder.write`); then lets the tiles and points go (the tiles' temporary file too).
    static var archives: ExportStage {
        ExportStage("archives", needs: [.thinned], produces: [.archives], releases: [.thinned, .points, .featureIDs]) { context in
            let thinned: BundleBuilder.Thinned = try context.need(.thinned)
            context.make(.archives, try BundleBuilder.write(thinned, stopwatch: &context.run.stopwatch))
            return .next
        }
    }
}

import Foundation
import Logging
import QuakeBundleFormat
import QuakeCommon

/// The stage that puts the new version in place.
extension ExportStage {
    /// Waits for the app database (and its deltas), leaves out a delta either of whose files could
    /// not be made, hashes the files, writes the manifest, renames the version into place, switches
    /// `current`, prunes to `--keep`, and keeps the event cache, the export state and the files'
    /// stamps for the next export.
    static func publish(deltas: Bool) -> ExportStage {
        ExportStage("publish", needs: [.read, .version, .archives, .appDatabase, .eventCache] + (deltas ? [.deltaBases] : [])) { context in
            let run = context.run, options = run.options, logger = run.logger
            let read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let built: BundleBuilder.Built = try context.need(.archives)
            let plannedBases: [DeltaWriter.Base] = try context.need(.deltaBases, absent: [])
            let table = read.table, directory = version.directory, final = version.final
            let appDatabase = try run.stopwatch.measure(plannedBases.isEmpty ? "waited for the app database" : "waited for the app database and its deltas") {
                try context.need(.appDatabase) as AppDatabaseDone
            }
            let deltaBases = DeltaWriter.dropping(built.deltaFailures + appDatabase.deltaFailures, from: plannedBases, in: directory, logger: logger)
            let files = try run.stopwatch.measure("hashed the files") { try BundleFiles.list(directory, known: [BundleFileName.appDatabase: appDatabase.digest]) }
            let stamps = PublishedStamps.take(PreviousVersion.builtUpon, in: directory, version: final.lastPathComponent)
            var warnings = built.warnings
            if table.count == 0 { warnings.insert("no event of the store \(run.store.path) matches the selection; the bundle is empty", at: 0) }
            let manifest = Manifest(bundleVersion: read.bundleVersion, highWaterMark: run.highWaterMark, contentDigest: read.contentDigest,
                                    options: options, events: table.count, details: read.details.rows.count, bounds: built.metadata.bounds,
                                    timeSpan: table.count == 0 ? nil : (table.time.min()!, table.time.max()!), zooms: built.zooms,
                                    geoJSONZooms: built.geoJSONZooms, recent: version.recent, files: files,
                                    deltas: DeltaWriter.describe(deltaBases, files: files), warnings: warnings)
            try BundleBuilder.write(Data(manifest.json.prettyText.utf8), to: directory.appendingPathComponent(BundleFileName.manifest))
            AtomicFile.syncDirectory(directory)
            run.progress.update(ProgressSnapshot(stage: "switch", done: 0, total: nil, unit: "files", detail: "switching current"))
            let removed = try run.stopwatch.measure("published") {
                try run.publisher.publish(temporary: directory, final: final)
                run.scratch.removes(unpublished: nil)
                return try run.publisher.prune(keep: options.keep)
            }
            run.stopwatch.measure("kept the event cache, the export state and the files' stamps") {
                keep(temporary: version.cacheTemporary, as: EventCache.url(out: run.out), logger: logger) {
                    try context.need(.eventCache) as Void
                }
                keep(temporary: version.state.temporary, as: version.state.file, logger: logger) {}
                do {
                    try stamps.write(out: run.out)
                } catch {
                    logger.debug("\(PublishedStamps.fileName) was not kept (the next export hashes the files it builds upon): \(ErrorText.message(error))")
                }
            }
            for warning in warnings.prefix(20) { logger.warning("\(warning)") }
            if warnings.count > 20 { logger.warning("… and \(warnings.count - 20) more size-guard warnings (see manifest.json)") }
            let bytes = files.reduce(0) { $0 + $1.bytes } + manifest.json.prettyText.utf8.count
            let summary = ExportSummary(changed: true, bundleVersion: read.bundleVersion, directory: final, events: table.count,
                                        rowsRead: read.result.rowsRead, highWaterMark: run.highWaterMark, tiles: built.baked.records.count,
                                        encodedTiles: built.baked.encoded, reusedTiles: built.baked.reused,
                                        copiedGeoJSONZooms: built.copiedGeoJSONZooms, bytes: bytes,
                                        zooms: built.zooms, warnings: warnings, removedVersions: removed,
                                        seconds: Date().timeIntervalSince(run.started))
            logger.info("\(summary.line)")
            return .finished(summary)
        }
    }

    /// Waits for `written` of a file the published version leaves for the next export (the event
    /// cache, the export state) and puts it in place; one that could not be written only costs the
    /// next export its shortcut.
    private static func keep(temporary: URL, as file: URL, logger: Logger, written: () throws -> Void) {
        do {
            try written()
            guard rename(temporary.path, file.path) == 0 else {
                throw QuakeBakeError("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            logger.warning("\(file.lastPathComponent) was not kept (the next export does more work): \(ErrorText.message(error))")
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: file)
        }
    }
}

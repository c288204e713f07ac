import Foundation
import QuakeBundleFormat
import QuakeCommon
import QuakeTiles

/// The selection read from the store, and what the bundle made of it is (product `read`).
struct ExportRead {
    let result: SelectionRead.Result
    let details: BundleDetails
    let contentDigest: String
    let bundleVersion: String
    var table: EventTable { result.snapshot.table }
}

/// The new version's directory, and what of the current version it builds on, each file once
/// checked (product `version`).
struct VersionPlan {
    let directory: URL
    /// Where the directory goes once published.
    let final: URL
    /// The current version's app database copy to patch, with what changed since (an incremental read, a sound file).
    let previousDatabase: (copy: PreviousFileCopy, changes: SelectionRead.Changes)?
    /// The version the tiles build on (see `BundleBuilder.Job.tilesBase`).
    let tilesBase: URL?
    /// The current version's MBTiles copy to patch, when its tiles build on it.
    let previousMBTiles: PreviousFileCopy?
    let recent: RecentLayer?
    let state: BundleBuilder.StateFiles
    /// Where the event cache is written until the version is published.
    let cacheTemporary: URL
}

/// The stages that read and decide what the new version is.
extension ExportStage {
    /// Starts copying the previous version's app database and MBTiles (on threads of their own),
    /// which the export patches: when it has an event cache (and, `afterRead`, the read used it).
    static func copyPrevious(_ previous: PreviousVersion, afterRead: Bool) -> ExportStage {
        ExportStage("copy-previous", needs: afterRead ? [.read] : [], produces: [.copies]) { context in
            let incremental = afterRead ? (try context.need(.read) as ExportRead).result.changes != nil : true
            let copies = incremental && previous.hasCache ? PreviousCopies(current: previous.directory, out: context.run.out) : nil
            if let copies { context.run.scratch.discards(copies) }
            context.make(.copies, copies as Any)
            return .next
        }
    }

    /// Checks the previous version's files the export builds on against its manifest: a damaged
    /// one is not built upon (its tiles would be copied into every version after it).
    static func checkPrevious(_ previous: PreviousVersion) -> ExportStage {
        ExportStage("check-previous", produces: [.sound], beside: true) { context in
            let builtUpon = PreviousVersion.builtUpon
            let unchanged = PublishedStamps.read(out: context.run.out, version: previous.directory.lastPathComponent)
                .unchanged(builtUpon, in: previous.directory)
            context.make(.sound, BundleFiles.matchingManifest(builtUpon, in: previous.directory, unchanged: unchanged))
            return .next
        }
    }

    /// Reads the selection: only the rows that changed, with the basis's event cache (which it
    /// takes), else all of it; and says what the bundle made of it is.
    static func read(_ basis: ExportBasis) -> ExportStage {
        ExportStage("read", produces: [.read]) { context in
            let run = context.run, options = run.options
            let read = try run.stopwatch.measure({ (read: SelectionRead.Result) in
                "read \(Format.count(read.rowsRead, "row")) of the store\(read.changes == nil ? "" : " (incremental)"): \(read.snapshot.table.count) events"
            }) {
                var cache = basis.previous?.cache.take()
                let read = try SelectionRead.read(run.reader, scanned: try run.scan.take(), options: options, cache: &cache, spill: run.spill)
                FreedMemory.release()
                run.spill?.releaseResident()
                return read
            }
            if read.changes == nil {
                // A full read says what it left out (an incremental one reads too little to tell).
                let misplaced = try run.reader.rows.misplacedRows()
                if misplaced.count > 0 {
                    run.logger.warning("\(run.store.path): \(Format.count(misplaced.count, "row")) with a position outside -180…180, -90…90 left out of the bundle (written behind quake-bake's back?): \(misplaced.examples.joined(separator: ", "))")
                }
            }
            let details = BundleDetails.checked(try run.reader.rows.details(of: options.selection.filter), logger: run.logger)
            let contentDigest = Exporter.contentDigest(read.snapshot.table)
            let bundleVersion = Exporter.bundleVersion(options: options, highWaterMark: run.highWaterMark, contentDigest: contentDigest,
                                                       detailsDigest: details.digest)
            context.make(.read, ExportRead(result: read, details: details, contentDigest: contentDigest, bundleVersion: bundleVersion))
            return .next
        }
    }

    /// Ends the export when the current version is the bundle it would make.
    static var unchanged: ExportStage {
        ExportStage("unchanged", needs: [.read]) { context in
            let run = context.run, read: ExportRead = try context.need(.read)
            guard let current = run.current, Manifest.bundleVersion(in: current) == read.bundleVersion else { return .next }
            let summary = ExportSummary(changed: false, bundleVersion: read.bundleVersion, directory: current, events: read.table.count,
                                        rowsRead: read.result.rowsRead, highWaterMark: run.highWaterMark, tiles: 0, encodedTiles: 0, reusedTiles: 0,
                                        copiedGeoJSONZooms: [], bytes: 0,
                                        zooms: [], warnings: [], removedVersions: [], seconds: Date().timeIntervalSince(run.started))
            run.logger.info("\(summary.line)")
            return .finished(summary)
        }
    }

    /// Makes the new version's directory and decides, file by file, what of the previous version
    /// it builds on: only the files found sound (with a fresh basis, none is checked or patched).
    static func version(_ basis: ExportBasis) -> ExportStage {
        ExportStage("version", needs: basis.previous == nil ? [.read] : [.read, .copies, .sound], produces: [.version]) { context in
            let run = context.run, read: ExportRead = try context.need(.read)
            var sound = Set(PreviousVersion.builtUpon)
            var copies: PreviousCopies?
            if let previous = basis.previous {
                sound = try context.need(.sound)
                copies = try context.need(.copies)
                for file in PreviousVersion.builtUpon where !sound.contains(file) {
                    run.logger.warning("\(previous.directory.path)/\(file) is not the file its manifest lists (damaged since it was published?): this export does not build on it")
                }
            }
            let previousDatabase = sound.contains(BundleFileName.appDatabase)
                ? copies.flatMap { copies in read.result.changes.map { (copy: copies.appDatabase, changes: $0) } } : nil
            // Its tiles are reused only when both archives are sound (a version copies them when nothing in them changed).
            let tilesBase = sound.isSuperset(of: [BundleFileName.pmtiles, BundleFileName.tiles]) ? run.current : nil
            let (directory, final) = try run.publisher.prepare(bundleVersion: read.bundleVersion)
            run.scratch.removes(unpublished: directory)
            let cacheTemporary = AtomicFile.temporary(EventCache.url(out: run.out))
            let stateFile = ExportState.url(out: run.out)
            let state = BundleBuilder.StateFiles(file: stateFile, temporary: AtomicFile.temporary(stateFile), version: final.lastPathComponent)
            run.scratch.removes(temporary: [cacheTemporary, state.temporary])
            context.make(.version, VersionPlan(directory: directory, final: final, previousDatabase: previousDatabase, tilesBase: tilesBase,
                                               previousMBTiles: tilesBase == nil ? nil : copies?.mbtiles,
                                               recent: RecentLayer.chosen(run.options.recentDays, table: read.table), state: state,
                                               cacheTemporary: cacheTemporary))
            return .next
        }
    }

    /// The older versions that stay after this one is published, from which deltas are made (each
    /// file as soon as the new file it compares is complete: see `DeltaWriter`).
    static var deltas: ExportStage {
        ExportStage("deltas", needs: [.read, .version], produces: [.deltaBases]) { context in
            let run = context.run, read: ExportRead = try context.need(.read), version: VersionPlan = try context.need(.version)
            let kept = run.publisher.versions().suffix(run.options.keep - 1).reversed().map { run.out.appendingPathComponent($0.name) }
            context.make(.deltaBases, try DeltaWriter.bases(Array(kept), to: read.bundleVersion, in: version.directory, logger: run.logger))
            return .next
        }
    }
}

import QuakeBundleFormat
import QuakeCatalog
import Foundation
import Logging
import QuakeCommon
import QuakeTiles

/// `quake-bake export`: reads the store, thins the events per zoom and publishes a bundle.
public enum Exporter {
    /// Exports the selected events of the store at `store` into a new bundle version under `out`
    /// and makes it current, keeping the newest `options.keep` versions.
    ///
    /// When the store content, its high-water mark and the options match the current
    /// bundle, nothing is written and the summary says `changed == false`. A selection
    /// without events gives a complete bundle without features, and a warning.
    /// Unless `options.reuseTiles` is off, the export reads only the store rows that
    /// changed since the current bundle (see `EventCache`), encodes only the tiles whose
    /// content changed and patches copies of the current `quakes.sqlite` and `quakes.mbtiles`;
    /// the bundle is the same either way (those two files by content: see `AppDatabaseWriter`).
    /// The caller holds the workspace lock.
    public static func export(store: URL, out: URL, options: ExportOptions,
                              progress: any ProgressSink, logger: Logger) throws -> ExportSummary {
        let started = Date()
        var stopwatch = Stopwatch(logger: logger)
        try options.validate()
        try OutputDirectory.check(out)
        // The memory budget (300 MB at three million events) makes glibc hand freed memory back;
        // a small store's export can afford glibc's reuse instead: fewer page faults, 0.2 s less
        // in the cron case at 440,000 events (a store of 209 MB), for 30 MB more at its peak.
        if Self.fileSize(store) > Self.smallStoreBytes { FreedMemory.limitRetention() }
        defer { progress.finish() }
        let scratch = ExportScratch()
        defer { scratch.cleanUp() }
        progress.update(ProgressSnapshot(stage: "export", done: 0, total: nil, unit: "events", detail: "reading the store"))
        let reader = try StoreReader(path: store)
        let highWaterMark = try reader.highWaterMark()
        let publisher = BundlePublisher(out: out)
        publisher.removeDebris()
        let current = publisher.current()
        let spill = Self.spillFile(out: out, logger: logger)
        let scan = BackgroundWork("export.scan") { try reader.rowKeys() }  // beside the cache's reading
        scratch.waitsFor(scan)
        var cache = stopwatch.measure({ $0 == nil ? "no event cache to start from" : "read the event cache (\($0!.snapshot.table.count) events)" }) {
            options.reuseTiles ? current.flatMap { EventCache.read(out: out, version: $0.lastPathComponent, options: options, spill: spill, logger: logger) } : nil
        }
        // With the cache, the app database and the MBTiles will start from the current bundle's:
        // copied while the store is read when the store has moved since (else, nothing changed, most likely).
        let cached = cache != nil  // the read takes the cache
        func copyPrevious() -> PreviousCopies? {
            guard cached, let current else { return nil }
            return PreviousCopies(current: current, out: out)
        }
        // The current bundle's files an incremental export builds on are checked against its
        // manifest, in the background while the store is read: a damaged one is not built upon
        // (its tiles would be copied into every version after it).
        var checking: BackgroundWork<Set<String>>?
        func checkPrevious() -> BackgroundWork<Set<String>>? {
            guard options.reuseTiles, let current else { return nil }
            return BackgroundWork("export.check-previous") {
                let unchanged = PublishedStamps.read(out: out, version: current.lastPathComponent).unchanged(Self.builtUpon, in: current)
                return BundleFiles.matchingManifest(Self.builtUpon, in: current, unchanged: unchanged)
            }
        }
        if current.flatMap(Manifest.highWaterMark(in:)) != highWaterMark {
            scratch.previousCopies = copyPrevious()
            checking = checkPrevious()
        }
        let read = try stopwatch.measure({ (read: SelectionRead.Result) in
            "read \(Format.count(read.rowsRead, "row")) of the store\(read.changes == nil ? "" : " (incremental)"): \(read.snapshot.table.count) events"
        }) {
            let read = try SelectionRead.read(reader, scanned: try scan.take(), options: options, cache: &cache, spill: spill)
            FreedMemory.release()
            spill?.releaseResident()
            return read
        }
        if read.changes == nil {
            // A full read says what it left out (an incremental one reads too little to tell).
            let misplaced = try reader.rows.misplacedRows()
            if misplaced.count > 0 {
                logger.warning("\(store.path): \(Format.count(misplaced.count, "row")) with a position outside -180…180, -90…90 left out of the bundle (written behind quake-bake's back?): \(misplaced.examples.joined(separator: ", "))")
            }
        }
        let table = read.snapshot.table
        let details = BundleDetails.checked(try reader.rows.details(of: options.selection.filter), logger: logger)
        let contentDigest = Self.contentDigest(table)
        let bundleVersion = Self.bundleVersion(options: options, highWaterMark: highWaterMark, contentDigest: contentDigest,
                                               detailsDigest: details.digest)

        if let current, Manifest.bundleVersion(in: current) == bundleVersion {
            let summary = ExportSummary(changed: false, bundleVersion: bundleVersion, directory: current, events: table.count,
                                        rowsRead: read.rowsRead, highWaterMark: highWaterMark, tiles: 0, encodedTiles: 0, reusedTiles: 0,
                                        copiedGeoJSONZooms: [], bytes: 0,
                                        zooms: [], warnings: [], removedVersions: [], seconds: Date().timeIntervalSince(started))
            logger.info("\(summary.line)")
            return summary
        }
        if scratch.previousCopies == nil && read.changes != nil { scratch.previousCopies = copyPrevious() }
        if checking == nil { checking = checkPrevious() }
        let sound = try checking?.wait() ?? Set(Self.builtUpon)  // not checked: nothing is built upon
        if let current, checking != nil {
            for file in Self.builtUpon where !sound.contains(file) {
                logger.warning("\(current.path)/\(file) is not the file its manifest lists (damaged since it was published?): this export does not build on it")
            }
        }
        let previousDatabase = sound.contains(BundleFileName.appDatabase)
            ? scratch.previousCopies.flatMap { copies in read.changes.map { (copy: copies.appDatabase, changes: $0) } } : nil
        // Its tiles are reused only when both archives are sound (a version copies them when nothing in them changed).
        let tilesBase = sound.isSuperset(of: [BundleFileName.pmtiles, BundleFileName.tiles]) ? current : nil
        let previousMBTiles = tilesBase == nil ? nil : scratch.previousCopies?.mbtiles
        let (directory, final) = try publisher.prepare(bundleVersion: bundleVersion)
        scratch.unpublished = directory
        // Deltas from the versions that stay after this one is published, each file written as soon
        // as the new file it compares is complete (see DeltaWriter).
        let kept = options.deltas ? publisher.versions().suffix(options.keep - 1).reversed().map { out.appendingPathComponent($0.name) } : []
        let plannedBases = try DeltaWriter.bases(Array(kept), to: bundleVersion, in: directory, logger: logger)
        let recent = RecentLayer.chosen(options.recentDays, table: table)
        // The feature ids on one core while this one orders the points; the app database waits for
        // them, and packs its R-tree once the points are ordered (both at once took a whole-catalog
        // export past its memory budget).
        let assigning = BackgroundWork("export.feature-ids") { FeatureID.assign(table) }
        let pointsOrdered = DispatchGroup()
        pointsOrdered.enter()
        let appDatabase = BackgroundWork("export.app-database") {
            let (digest, touched) = try AppDatabaseWriter.write(store: store, selection: options.selection, table: table,
                                                                featureIDs: try assigning.wait(),
                                                                info: .init(bundleVersion: bundleVersion, highWaterMark: highWaterMark,
                                                                            events: table.count, recentSince: recent?.since),
                                                                details: details, previous: previousDatabase,
                                                                to: directory.appendingPathComponent(BundleFileName.appDatabase),
                                                                packingMayStart: { pointsOrdered.wait() }, logger: logger)
            let started = Stopwatch.threadCPUSeconds()
            let failures = DeltaWriter.writeRows(into: directory, from: plannedBases,
                                                 touched: touched.flatMap { rows in current.map { ($0, rows) } })
            if !plannedBases.isEmpty {
                let compared = touched.map { "the \(Format.count($0.rowids.count + $0.ids.count, "row")) the patch touched and those of the current version's deltas" }
                logger.debug("wrote the rows deltas from \(Format.count(plannedBases.count, "version")), comparing \(compared ?? "every row"): CPU \(String(format: "%.3f", Stopwatch.threadCPUSeconds() - started)) s")
            }
            return (digest, failures)
        }
        scratch.waitsFor(appDatabase)
        let (points, featureIDs) = try stopwatch.measure("ordered the points") { () -> (PointSet, FeatureIDs) in
            defer { pointsOrdered.leave() }
            let points = PointSet(table: table, buildTimeOrder: options.thinning.stride > 1, including: recent?.history)
            let featureIDs = try assigning.wait()
            FreedMemory.release()
            spill?.releaseResident()
            return (points, featureIDs)
        }
        let cacheFile = EventCache.url(out: out)
        let cacheTemporary = AtomicFile.temporary(cacheFile)
        let stateFile = ExportState.url(out: out)
        let state = BundleBuilder.StateFiles(file: stateFile, temporary: AtomicFile.temporary(stateFile), version: final.lastPathComponent)
        scratch.temporaryFiles += [cacheTemporary, state.temporary]
        var cacheWriter: BackgroundWork<Void>?
        let built = try BundleBuilder.build(read: read, points: points, featureIDs: featureIDs, options: options, directory: directory,
                                            previous: tilesBase, previousMBTiles: previousMBTiles, state: state,
                                            recent: recent, details: details, deltaBases: plannedBases,
                                            progress: progress, stopwatch: &stopwatch) { minZoom, movedKeys in
            let writer = BackgroundWork("export.event-cache") {
                try EventCache.write(version: final.lastPathComponent, options: options, snapshot: read.snapshot,
                                     minZoom: minZoom, movedKeys: movedKeys, to: cacheTemporary)
            }
            scratch.waitsFor(writer)
            cacheWriter = writer
        }
        let (appDatabaseDigest, rowsDeltaFailures) = try stopwatch.measure(plannedBases.isEmpty ? "waited for the app database" : "waited for the app database and its deltas") {
            try appDatabase.wait()
        }
        // A delta either of whose files could not be made is left out whole.
        let deltaBases = DeltaWriter.dropping(built.deltaFailures + rowsDeltaFailures, from: plannedBases, in: directory, logger: logger)
        let files = try stopwatch.measure("hashed the files") { try BundleFiles.list(directory, known: [BundleFileName.appDatabase: appDatabaseDigest]) }
        let stamps = PublishedStamps.take(Self.builtUpon, in: directory, version: final.lastPathComponent)
        let deltas = DeltaWriter.describe(deltaBases, files: files)
        var warnings = built.warnings
        if table.count == 0 { warnings.insert("no event of the store \(store.path) matches the selection; the bundle is empty", at: 0) }
        let manifest = Manifest(bundleVersion: bundleVersion, highWaterMark: highWaterMark, contentDigest: contentDigest, options: options,
                                events: table.count, details: details.rows.count, bounds: built.metadata.bounds,
                                timeSpan: table.count == 0 ? nil : (table.time.min()!, table.time.max()!), zooms: built.zooms,
                                geoJSONZooms: built.geoJSONZooms, recent: recent, files: files, deltas: deltas, warnings: warnings)
        try BundleBuilder.write(Data(manifest.json.prettyText.utf8), to: directory.appendingPathComponent(BundleFileName.manifest))
        AtomicFile.syncDirectory(directory)
        progress.update(ProgressSnapshot(stage: "switch", done: 0, total: nil, unit: "files", detail: "switching current"))
        let removed = try stopwatch.measure("published") {
            try publisher.publish(temporary: directory, final: final)
            scratch.unpublished = nil
            return try publisher.prune(keep: options.keep)
        }
        stopwatch.measure("kept the event cache, the export state and the files' stamps") {
            keep(cacheWriter, temporary: cacheTemporary, as: cacheFile, logger: logger)
            keep(nil, temporary: state.temporary, as: state.file, logger: logger)
            do {
                try stamps.write(out: out)
            } catch {
                logger.debug("\(PublishedStamps.fileName) was not kept (the next export hashes the files it builds upon): \(ErrorText.message(error))")
            }
        }
        for warning in warnings.prefix(20) { logger.warning("\(warning)") }
        if warnings.count > 20 { logger.warning("… and \(warnings.count - 20) more size-guard warnings (see manifest.json)") }
        let bytes = files.reduce(0) { $0 + $1.bytes } + manifest.json.prettyText.utf8.count
        let summary = ExportSummary(changed: true, bundleVersion: bundleVersion, directory: final, events: table.count,
                                    rowsRead: read.rowsRead, highWaterMark: highWaterMark, tiles: built.baked.records.count,
                                    encodedTiles: built.baked.encoded, reusedTiles: built.baked.reused,
                                    copiedGeoJSONZooms: built.copiedGeoJSONZooms, bytes: bytes,
                                    zooms: built.zooms, warnings: warnings, removedVersions: removed,
                                    seconds: Date().timeIntervalSince(started))
        logger.info("\(summary.line)")
        return summary
    }

    /// Stores up to this size (some 500,000 events) are exported with glibc's own memory reuse.
    static let smallStoreBytes = 256 << 20

    /// The size of the file at `url` (as big as can be when it cannot be told).
    private static func fileSize(_ url: URL) -> Int {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int(status.st_size) : .max
    }

    /// A file beside the bundles for the event table's columns (see `SpillFile`); `nil` (the
    /// table stays in memory) where none can be made.
    private static func spillFile(out: URL, logger: Logger) -> SpillFile? {
        try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        guard let spill = SpillFile(directory: out) else {
            logger.debug("no spill file can be made in \(out.path): the event table is kept in memory")
            return nil
        }
        return spill
    }

    /// The current bundle's files an incremental export builds on: the tiles it reuses (and
    /// copies when none changed) and the app database it patches.
    static let builtUpon = [BundleFileName.pmtiles, BundleFileName.tiles, BundleFileName.appDatabase]

    /// What an export has going on the side until it publishes, cleaned up once when it ends
    /// (published, unchanged or failed): background work is waited for (it may be writing into
    /// the version directory), then the copies of the previous version's files, temporary files and
    /// a version directory that was not published are removed.
    private final class ExportScratch {
        var previousCopies: PreviousCopies?
        var unpublished: URL?
        var temporaryFiles: [URL] = []
        private var waits: [() -> Void] = []

        func waitsFor<T>(_ work: BackgroundWork<T>) {
            waits.append { _ = try? work.wait() }
        }

        func cleanUp() {
            for wait in waits { wait() }
            previousCopies?.discard()
            for file in temporaryFiles { try? FileManager.default.removeItem(at: file) }
            if let unpublished { try? FileManager.default.removeItem(at: unpublished) }
        }
    }

    /// Waits for `writer` (if any) of a file the published version leaves for the next export (the
    /// event cache, the export state) and puts it in place; one that could not be written only
    /// costs the next export its shortcut.
    private static func keep(_ writer: BackgroundWork<Void>?, temporary: URL, as file: URL, logger: Logger) {
        do {
            try writer?.wait()
            guard rename(temporary.path, file.path) == 0 else {
                throw QuakeBakeError("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            logger.warning("\(file.lastPathComponent) was not kept (the next export does more work): \(ErrorText.message(error))")
            try? FileManager.default.removeItem(at: temporary)
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// A hash of the selection's content: every event's fingerprint, in no order (the sums of
    /// the fingerprints and of a mix of each: no sort of a million numbers).
    static func contentDigest(_ table: EventTable) -> String {
        var sum: UInt64 = 0, mixedSum: UInt64 = 0
        for fingerprint in table.fingerprint {
            sum &+= fingerprint
            mixedSum &+= SeededGenerator.mix(fingerprint)
        }
        var hasher = SipHasher()
        hasher.combine(UInt64(table.count))
        hasher.combine(sum)
        hasher.combine(mixedSum)
        return String(format: "%016llx", hasher.finalize())
    }

    /// The bundle version: the first 16 hex digits of the SHA-256 of everything the bundle is made
    /// from (the events, and the details of those that have them: `BundleDetails.digest`).
    static func bundleVersion(options: ExportOptions, highWaterMark: Int64, contentDigest: String, detailsDigest: String) -> String {
        let text = JSON.object([("format", .int(Manifest.formatVersion)), ("options", options.contentJSON),
                                ("high_water_mark", .int(highWaterMark)), ("content", .string(contentDigest)),
                                ("details", .string(detailsDigest))]).text
        return String(SHA256.hex(Data(text.utf8)).prefix(16))
    }
}

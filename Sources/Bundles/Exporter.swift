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
    /// bundle, nothing is written and the summary says `changed == false`.
    /// The caller holds the workspace lock.
    public static func export(store: URL, out: URL, options: ExportOptions,
                              progress: any ProgressSink, logger: Logger) throws -> ExportSummary {
        let started = Date()
        var stopwatch = Stopwatch(logger: logger)
        try options.validate()
        defer { progress.finish() }
        progress.update(ProgressSnapshot(stage: "export", done: 0, total: nil, unit: "events", detail: "reading the store"))
        let reader = try StoreReader(path: store)
        let highWaterMark = try reader.highWaterMark()
        let table = try reader.readEvents(options.selection, attributes: options.attributes)
        guard table.count > 0 else {
            throw QuakeBakeError("no event of the store \(store.path) matches the selection; nothing to export")
        }
        FreedMemory.release()
        stopwatch.lap("read \(table.count) events")
        let contentDigest = Self.contentDigest(table)
        let bundleVersion = Self.bundleVersion(options: options, highWaterMark: highWaterMark, contentDigest: contentDigest)

        let publisher = BundlePublisher(out: out)
        let current = publisher.current()
        if let current, Manifest.bundleVersion(in: current) == bundleVersion {
            let summary = ExportSummary(changed: false, bundleVersion: bundleVersion, directory: current, events: table.count,
                                        highWaterMark: highWaterMark, tiles: 0, encodedTiles: 0, reusedTiles: 0, bytes: 0,
                                        zooms: [], warnings: [], removedVersions: [], seconds: Date().timeIntervalSince(started))
            logger.info("\(summary.line)")
            return summary
        }
        let (directory, final) = try publisher.prepare(bundleVersion: bundleVersion)
        let appDatabase = BackgroundWork("export.app-database") {
            try AppDatabaseWriter.write(store: store, selection: options.selection, highWaterMark: highWaterMark,
                                        to: directory.appendingPathComponent("quakes.sqlite"))
        }
        do {
            let built = try build(table: table, options: options, directory: directory, previous: current,
                                  progress: progress, stopwatch: &stopwatch)
            try appDatabase.wait()
            stopwatch.lap("waited for the app database")
            let files = try Self.files(in: directory)
            stopwatch.lap("hashed the files")
            let manifest = Manifest(bundleVersion: bundleVersion, highWaterMark: highWaterMark, contentDigest: contentDigest, options: options,
                                    events: table.count, bounds: built.metadata.bounds,
                                    timeSpan: (table.time.min()!, table.time.max()!), zooms: built.zooms,
                                    geoJSONZooms: built.geoJSONZooms, files: files, warnings: built.warnings)
            try write(Data(manifest.json.prettyText.utf8), to: directory.appendingPathComponent(Manifest.fileName))
            AtomicFile.syncDirectory(directory)
            progress.update(ProgressSnapshot(stage: "publish", done: 0, total: nil, unit: "files", detail: "switching current"))
            try publisher.publish(temporary: directory, final: final)
            let removed = try publisher.prune(keep: options.keep)
            stopwatch.lap("published")
            for warning in built.warnings.prefix(20) { logger.warning("\(warning)") }
            if built.warnings.count > 20 { logger.warning("… and \(built.warnings.count - 20) more size-guard warnings (see manifest.json)") }
            let bytes = files.reduce(0) { $0 + $1.bytes } + manifest.json.prettyText.utf8.count
            let summary = ExportSummary(changed: true, bundleVersion: bundleVersion, directory: final, events: table.count,
                                        highWaterMark: highWaterMark, tiles: built.baked.records.count,
                                        encodedTiles: built.baked.encoded, reusedTiles: built.baked.reused, bytes: bytes,
                                        zooms: built.zooms, warnings: built.warnings, removedVersions: removed,
                                        seconds: Date().timeIntervalSince(started))
            logger.info("\(summary.line)")
            return summary
        } catch {
            _ = try? appDatabase.wait()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private struct Built {
        let baked: TileBaker.Result
        let metadata: TilesetMetadata
        let zooms: [ZoomSummary]
        let geoJSONZooms: [Int]
        let warnings: [String]
    }

    /// Everything but the app database and the manifest: tiles, archives, GeoJSON, timeline, preview, state.
    private static func build(table: EventTable, options: ExportOptions, directory: URL, previous: URL?,
                              progress: any ProgressSink, stopwatch: inout Stopwatch) throws -> Built {
        let thinningOptions = options.thinning
        let points = PointSet(table: table, buildTimeOrder: thinningOptions.stride > 1)
        let featureIDs = FeatureID.assign(table)
        FreedMemory.release()
        stopwatch.lap("ordered the points")
        let optionsDigest = ExportState.optionsDigest(options)
        var previousState: ExportState?
        var previousArchive: URL?
        if options.reuseTiles, let previous, let state = ExportState.read(previous.appendingPathComponent(ExportState.fileName)),
           state.optionsDigest == optionsDigest {
            previousState = state
            previousArchive = previous.appendingPathComponent("quakes.pmtiles")
        }
        let data = try TileData(fresh: directory.appendingPathComponent("tiles" + AtomicFile.temporarySuffix), previous: previousArchive)
        let baker = TileBaker(table: table, points: points, featureIDs: featureIDs, options: thinningOptions,
                              previous: data.hasPrevious ? previousState : nil, data: data, progress: progress)
        let baked = try baker.bake()
        let thinning = baked.thinning
        FreedMemory.release()
        stopwatch.lap("thinned and made \(baked.records.count) tiles (\(baked.encoded) encoded, \(baked.passes) pass(es))")
        progress.update(ProgressSnapshot(stage: "export", done: 0, total: nil, unit: "files", detail: "writing the archives"))

        let metadata = TilesetMetadata(options: options, table: table, points: points, thinning: thinning, records: baked.records)
        FreedMemory.release()
        stopwatch.lap("tileset metadata")
        let offsets = try PMTilesWriter.write(records: baked.records, data: data, metadata: metadata.pmtilesJSON,
                                              header: metadata.pmtilesHeader, to: directory.appendingPathComponent("quakes.pmtiles"))
        stopwatch.lap("wrote quakes.pmtiles")
        try MBTilesWriter.write(records: baked.records, data: data, metadata: metadata.mbtilesRows,
                                to: directory.appendingPathComponent("quakes.mbtiles"))
        FreedMemory.release()
        stopwatch.lap("wrote quakes.mbtiles")
        let stateEntries = zip(baked.records, offsets).map { record, offset in
            ExportState.Entry(key: record.key.packed, contentHash: record.contentHash, offset: offset, length: record.length,
                              oversize: false, dataHash: record.dataHash)
        }
        let state = ExportState(optionsDigest: optionsDigest, entries: stateEntries + baked.oversize)
        try write(state.encoded(), to: directory.appendingPathComponent(ExportState.fileName))

        let zooms = zoomSummaries(records: baked.records, thinning: thinning, options: thinningOptions, events: table.count)
        let geoJSONZooms = zooms.filter { $0.events + $0.clusters <= options.geoJSONMaxFeatures }.map(\.zoom)
        let layers = ZoomLayer.build(zooms: geoJSONZooms, points: points, thinning: thinning, options: thinningOptions)
        for layer in layers {
            let url = directory.appendingPathComponent("geojson/z\(layer.zoom).geojson.gz")
            try GeoJSONZoomWriter.write(layer, table: table, thinning: thinning, to: url)
            SQLiteBuild.fsync(url)
        }
        try write(Data(TimelineWriter.json(table).text.utf8), to: directory.appendingPathComponent("timeline.json"))
        try write(Data(PreviewWriter.html(name: options.name, layers: layers, table: table).utf8),
                  to: directory.appendingPathComponent("preview.html"))
        stopwatch.lap("wrote state, GeoJSON, timeline and preview")
        let warnings = thinning.actions.map { action -> String in
            let why = action.reason == .bytes
                ? "to stay under \(Format.count(thinningOptions.maxTileBytes)) bytes compressed"
                : "to stay under \(Format.count(thinningOptions.maxTileFeatures)) features"
            return "tile \(action.tile): \(Format.count(action.events)) events, kept the \(Format.count(action.kept)) biggest \(why)"
        }
        return Built(baked: baked, metadata: metadata, zooms: zooms, geoJSONZooms: geoJSONZooms, warnings: warnings)
    }

    private static func zoomSummaries(records: [TileRecord], thinning: Thinning, options: ThinningOptions, events: Int) -> [ZoomSummary] {
        var shown = [Int](repeating: 0, count: options.maxZoom + 2)
        for mz in thinning.minZoom where mz != Thinning.never { shown[Int(mz)] += 1 }
        var cumulative = 0
        return (0...options.maxZoom).compactMap { zoom -> ZoomSummary? in
            cumulative += shown[zoom]
            guard zoom >= options.minZoom else { return nil }
            let tiles = records.filter { $0.key.z == zoom }
            return ZoomSummary(zoom: zoom, tiles: tiles.count, events: cumulative,
                               clusters: tiles.reduce(0) { $0 + Int($1.clusters) },
                               clusteredEvents: options.clusters ? events - cumulative : 0,
                               largestTileBytes: Int(tiles.map(\.length).max() ?? 0))
        }
    }

    /// Every file of the bundle directory (but the manifest), sorted by path, with size and sha256.
    private static func files(in directory: URL) throws -> [(path: String, bytes: Int, sha256: String)] {
        let base = directory.standardizedFileURL.path + "/"
        var paths: [String] = []
        if let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                paths.append(String(url.standardizedFileURL.path.dropFirst(base.count)))
            }
        }
        let sorted = paths.filter { $0 != Manifest.fileName && !$0.hasSuffix(AtomicFile.temporarySuffix) }.sorted()
        let digests = Parallel.map(sorted.count) { i in
            Result { try SHA256.hex(fileAt: directory.appendingPathComponent(sorted[i])) }
        }
        return try sorted.indices.map { i in
            let url = directory.appendingPathComponent(sorted[i])
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            return (sorted[i], size, try digests[i].get())
        }
    }

    /// Writes a file of the (unpublished) bundle and flushes it to disk.
    private static func write(_ data: Data, to url: URL) throws {
        try data.write(to: url)
        SQLiteBuild.fsync(url)
    }

    /// A hash of the selection's content: every event's fingerprint, in a fixed order.
    static func contentDigest(_ table: EventTable) -> String {
        var hasher = SipHasher()
        hasher.combine(UInt64(table.count))
        for fingerprint in table.fingerprint.sorted() { hasher.combine(fingerprint) }
        return String(format: "%016llx", hasher.finalize())
    }

    /// The bundle version: the first 16 hex digits of the SHA-256 of everything the bundle is made from.
    static func bundleVersion(options: ExportOptions, highWaterMark: Int64, contentDigest: String) -> String {
        let text = JSON.object([("format", .int(Manifest.formatVersion)), ("options", options.contentJSON),
                                ("high_water_mark", .int(highWaterMark)), ("content", .string(contentDigest))]).text
        return String(SHA256.hex(Data(text.utf8)).prefix(16))
    }
}

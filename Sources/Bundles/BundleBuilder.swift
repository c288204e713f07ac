import Foundation
import QuakeBundleFormat
import QuakeCommon
import QuakeTiles

/// Writes every file of a bundle but the app database and the manifest: tiles, the two
/// archives, the tile state, GeoJSON, timeline and preview.
enum BundleBuilder {
    /// Thins the job's events and makes their tiles, reusing the current version's where the
    /// previous export's state (`job.state`) says their content is unchanged.
    static func thin(_ job: Job, progress: any ProgressSink, stopwatch: inout Stopwatch) throws -> Thinned {
        let read = job.read, options = job.options, recent = job.recent, featureIDs = job.featureIDs
        let table = read.snapshot.table
        let thinningOptions = options.thinning
        let optionsDigest = ExportState.optionsDigest(options, recentSince: recent?.since)
        var previousState: ExportState?
        var previousArchive: URL?
        if options.reuseTiles, let previous = job.tilesBase, let read = ExportState.read(job.state.file, version: previous.lastPathComponent),
           read.optionsDigest == optionsDigest {
            previousState = read
            previousArchive = previous.appendingPathComponent(BundleFileName.pmtiles)
        }
        let data = try TileData(fresh: job.directory.appendingPathComponent("tiles" + AtomicFile.temporarySuffix), previous: previousArchive)
        let reusable = data.hasPrevious ? previousState : nil
        let unchanged = reusable == nil ? nil : read.previous.map {
            unchangedEvents($0, keys: read.snapshot.eventKeys, featureIDs: featureIDs, options: thinningOptions, recentSince: recent?.since)
        }
        let baker = TileBaker(table: table, points: job.points, featureIDs: featureIDs, options: thinningOptions,
                              previous: reusable, unchanged: unchanged, data: data, progress: progress)
        let baked = try baker.bake()
        let records = baked.records
        // The map's thinning draws the recent events at every zoom; the tiles' leaves them out.
        let thinning = recent.map { baked.thinning.drawing($0.events, from: thinningOptions.minZoom) } ?? baked.thinning
        let tilesThinning = recent.map { baked.thinning.drawing($0.events, from: Int(Thinning.never)) } ?? baked.thinning
        let movedKeys = featureIDs.movedEvents.map { read.snapshot.eventKeys[$0] }
        FreedMemory.release()
        table.spill?.releaseResident()
        stopwatch.lap("thinned and made \(records.count) tiles (\(baked.encoded) encoded: \(baked.encodedFeatures) features, "
                      + "\(Format.bytes(baked.encodedBytes)) before gzip; \(baked.passes) pass(es), "
                      + (baked.thinningTaken ? "the previous export's thinning)" : "thinning \(String(format: "%.2f", baked.thinningSeconds)) s)"))
        progress.update(ProgressSnapshot(stage: "export", done: 0, total: nil, unit: "files", detail: "writing the archives"))
        return Thinned(job: job, baked: baked, data: data, thinning: thinning, tilesThinning: tilesThinning, reusable: reusable,
                       previousArchive: previousArchive, optionsDigest: optionsDigest,
                       cacheUpdate: CacheUpdate(minZoom: thinning.minZoom, movedKeys: movedKeys))
    }

    /// Writes the files of the thinned job into its directory: the two archives (with the tiles
    /// deltas) and the export state on this thread and one of its own, the GeoJSON zooms, the
    /// timeline, style, basemap, recent layer, preview and details on others.
    static func write(_ thinned: Thinned, stopwatch: inout Stopwatch) throws -> Built {
        let job = thinned.job, baked = thinned.baked, data = thinned.data, thinning = thinned.thinning
        let options = job.options, recent = job.recent, directory = job.directory, previous = job.tilesBase
        let points = job.points, details = job.details, deltaBases = job.deltaBases, reusable = thinned.reusable
        let table = job.read.snapshot.table
        let thinningOptions = options.thinning
        let records = baked.records
        // The GeoJSON zooms, the timeline and preview, and the MBTiles are written on threads of
        // their own while this one makes the metadata and writes the PMTiles: the tiles are done,
        // so the cores are free.
        let zooms = zoomSummaries(records: records, thinning: thinning, options: thinningOptions, events: table.count)
        // A zoom's GeoJSON holds the tiles' quakes and clusters; the recent layer, which the zoom draws too, has its own file.
        let recentCount = recent?.events.count ?? 0
        let geoJSONZooms = zooms.filter { $0.events - recentCount + $0.clusters <= options.geoJSONMaxFeatures }.map(\.zoom)
        let layers = ZoomLayer.build(zooms: geoJSONZooms, points: points, thinning: thinning, options: thinningOptions)
        let geoJSONDigests = Dictionary(uniqueKeysWithValues: layers.map { ($0.zoom, GeoJSONZoomWriter.digest($0, table: table, thinning: thinning)) })
        // The zooms whose points are those of the current version's file: copied from there (when sound).
        let sameGeoJSON = reusable.map { state in geoJSONDigests.filter { state.geoJSONDigests[$0.key] == $0.value }.map(\.key) } ?? []
        // When each file written on the side was done, in seconds from here (for the debug log).
        let sideStart = DispatchTime.now()
        let geoJSON = BackgroundWork("export.geojson") {
            (try writeGeoJSON(layers, table: table, thinning: thinning, into: directory, copying: sameGeoJSON, from: previous),
             Stopwatch.seconds(since: sideStart))
        }
        let preview = BackgroundWork("export.preview") {
            try write(Data(TimelineWriter.json(table).text.utf8), to: directory.appendingPathComponent(BundleFileName.timeline))
            try write(Data((options.style?.text ?? StyleWriter.json(name: options.name, recent: recent != nil, basemap: options.basemap)).utf8),
                      to: directory.appendingPathComponent(BundleFileName.style))
            try options.basemap.write(into: directory)
            try recent?.write(table: table, thinning: thinning, zoom: thinningOptions.minZoom, into: directory)
            // Every zoom of the preview draws the recent quakes; at most half its room goes to them (the biggest).
            let shown = recent.map { recent in layers.map { $0.adding(Array(recent.events.prefix(PreviewWriter.maximumRecentEvents))) } } ?? layers
            try write(Data(PreviewWriter.html(name: options.name, layers: shown, table: table, points: points, basemap: options.basemap,
                                              recentSince: recent?.since, details: details).utf8),
                      to: directory.appendingPathComponent(BundleFileName.preview))
            try details.writeFiles(into: directory)
            return Stopwatch.seconds(since: sideStart)
        }
        stopwatch.lap("the GeoJSON zooms' points")
        let metadata = TilesetMetadata(options: options, table: table, points: points, thinning: thinned.tilesThinning, records: records)
        FreedMemory.release()
        table.spill?.releaseResident()
        stopwatch.lap("tileset metadata")
        let mbtilesRows = metadata.mbtilesRows
        // Every tile as before, and the same metadata: the archives are the previous version's, byte
        // for byte, and are copied (when only recent quakes changed, the common cron run).
        let metadataDigest = metadata.digest
        let sameArchives = reusable.map { $0.metadataDigest == metadataDigest && $0.tileCount == records.count } == true
            && records.allSatisfy { $0.origin == .previous }
        let mbtiles = BackgroundWork("export.mbtiles") {
            let url = directory.appendingPathComponent(BundleFileName.tiles)
            var how = "copied"
            if sameArchives, let previous {
                try copyArchive(previous.appendingPathComponent(BundleFileName.tiles), to: url)
            } else {
                // A copy of the current version's file is patched when its tiles are reused.
                let patched = try MBTilesWriter.write(records: records, data: data, metadata: mbtilesRows,
                                                      previous: reusable == nil ? nil : job.previousMBTiles, to: url)
                how = patched ? "patched" : "written"
            }
            let written = Stopwatch.seconds(since: sideStart)
            let encoded = previous.map { ($0, records.filter { $0.origin != .previous }.map(\.key)) }
            let failures = DeltaWriter.writeTiles(into: directory, from: deltaBases, encoded: encoded)
            return (failures, "\(BundleFileName.tiles) \(how) \(String(format: "%.2f", written)) s"
                    + (deltaBases.isEmpty ? "" : ", its deltas \(String(format: "%.2f", Stopwatch.seconds(since: sideStart))) s"))
        }
        do {
            let url = directory.appendingPathComponent(BundleFileName.pmtiles)
            let offsets: [UInt64]
            if sameArchives, let previousArchive = thinned.previousArchive {
                try copyArchive(previousArchive, to: url)
                offsets = records.map(\.offset)
            } else {
                offsets = try PMTilesWriter.write(records: records, data: data, metadata: metadata.pmtilesJSON,
                                                  header: metadata.pmtilesHeader, to: url)
            }
            stopwatch.lap(sameArchives ? "copied \(BundleFileName.pmtiles) (every tile and the metadata as before)" : "wrote \(BundleFileName.pmtiles)")
            try writeState(records: records, offsets: offsets, oversize: baked.oversize, optionsDigest: thinned.optionsDigest,
                           metadataDigest: metadataDigest, heldEvents: points.byRank.count,
                           maximaDigest: ExportState.maximaDigest(baked.thinning.wholeSelectionMaxima, table: table), cuts: baked.thinning.actions,
                           geoJSONDigests: geoJSONDigests, version: job.state.version, to: job.state.temporary)
            stopwatch.lap("wrote the export state")
        } catch {
            _ = try? mbtiles.wait()
            _ = try? geoJSON.wait()
            _ = try? preview.wait()
            throw error
        }
        // All waited for before any error is thrown: no thread is left writing into the directory.
        let tilesDeltas = Result { try mbtiles.wait() }
        let copiedGeoJSON = Result { try geoJSON.wait() }
        let previewDone = Result { try preview.wait() }
        let written = [tilesDeltas.map { _ in () }, copiedGeoJSON.map { _ in () }, previewDone.map { _ in () }]
        for result in written { try result.get() }
        FreedMemory.release()
        table.spill?.releaseResident()
        let (copied, geoJSONDone) = try copiedGeoJSON.get()
        let (deltaFailures, mbtilesDone) = try tilesDeltas.get()
        stopwatch.lap("waited for \(BundleFileName.tiles)\(deltaBases.isEmpty ? "" : " and its deltas"), the \(layers.count) GeoJSON zoom(s)"
                      + (copied.isEmpty ? "" : " (\(copied.count) copied from the current version)") + ", the timeline and the preview"
                      + " (done after: \(mbtilesDone), GeoJSON \(String(format: "%.2f", geoJSONDone)) s, the others \(String(format: "%.2f", try previewDone.get())) s)")
        return Built(baked: baked, metadata: metadata, zooms: zooms, geoJSONZooms: geoJSONZooms, copiedGeoJSONZooms: copied,
                     warnings: warnings(thinning, recent: recent, options: options), deltaFailures: deltaFailures)
    }

    /// The export's warnings: a recent layer too big for a GeoJSON zoom, then the size guard's cuts.
    private static func warnings(_ thinning: Thinning, recent: RecentLayer?, options: ExportOptions) -> [String] {
        var warnings = thinning.actions.map { action -> String in
            let why = action.reason == .bytes
                ? "to stay under \(Format.count(options.thinning.maxTileBytes)) bytes compressed"
                : "to stay under \(Format.count(options.thinning.maxTileFeatures)) features"
            let rest = action.tile.z == options.thinning.maxZoom ? "the rest only in its clusters" : "the rest from zoom \(action.tile.z + 1)"
            return "tile \(action.tile): \(Format.count(action.events)) events, kept \(Format.count(action.kept)) (what lower zooms draw, then the biggest) "
                + "\(why); \(rest)"
        }
        if let recent, recent.events.count > options.geoJSONMaxFeatures {
            warnings.insert("the recent layer holds \(Format.count(recent.events.count, "quake")) (more than the \(Format.count(options.geoJSONMaxFeatures)) "
                            + "features of a GeoJSON zoom), all drawn at every zoom from \(BundleFileName.recent) (the preview draws the biggest "
                            + "\(Format.count(min(recent.events.count, PreviewWriter.maximumRecentEvents)))): a shorter --recent-days keeps it light",
                            at: 0)
        }
        return warnings
    }

    /// Copies the previous version's archive, which this version would write byte for byte, and flushes it to disk.
    private static func copyArchive(_ source: URL, to url: URL) throws {
        try FileCopy.copy(source, to: url)
        SQLiteBuild.fsync(url)
    }

    /// What the previous export knew of each event of this one: known when it was there unchanged
    /// and its feature id has not moved (a collision came or went), and the tiles that lost an event.
    private static func unchangedEvents(_ previous: SelectionRead.Previous, keys: SpillableArray<UInt64>, featureIDs: FeatureIDs,
                                        options: ThinningOptions, recentSince: Int64?) -> TileBaker.UnchangedEvents {
        var known = previous.known
        for event in featureIDs.movedEvents { known[event] = false }
        if !previous.movedKeys.isEmpty {
            let moved = Set(previous.movedKeys)
            for (event, key) in keys.enumerated() where moved.contains(key) { known[event] = false }
        }
        var stale = Set<UInt64>()
        // An event of the recent layer was in no tile (the previous export had the same boundary: its state is reused only then).
        for (longitude, latitude, time) in previous.removed where time < recentSince ?? .max {
            let x = WebMercator.worldX(longitude: longitude), y = WebMercator.worldY(latitude: latitude)
            for zoom in options.minZoom...options.maxZoom {
                stale.insert(TileKey(z: zoom, x: WebMercator.tileIndex(x, zoom: zoom), y: WebMercator.tileIndex(y, zoom: zoom)).packed)
            }
        }
        return TileBaker.UnchangedEvents(known: known, minZoom: previous.minZoom, staleTiles: stale)
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

    /// Writes `geojson/z{z}.geojson.gz` for each of `layers`; those of `copying` are copied from the version
    /// `previous` instead, where its file is the one its manifest lists. Returns the zooms copied.
    private static func writeGeoJSON(_ layers: [ZoomLayer], table: EventTable, thinning: Thinning, into directory: URL,
                                     copying: [Int], from previous: URL?) throws -> [Int] {
        guard !layers.isEmpty else { return [] }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(BundleFileName.geoJSONZooms), withIntermediateDirectories: true)
        @Sendable func path(_ zoom: Int) -> String { BundleFileName.geoJSONZoom(zoom) }
        let sound = previous.map { BundleFiles.matchingManifest(copying.map(path), in: $0) } ?? []
        // The zooms on every core: the biggest is about half of the text, and the tiles are done.
        let results = Parallel.map(layers.count) { i -> Result<Int?, any Error> in
            let layer = layers[i], url = directory.appendingPathComponent(path(layer.zoom))
            return Result {
                var copied: Int?
                if let previous, sound.contains(path(layer.zoom)) {
                    try FileCopy.copy(previous.appendingPathComponent(path(layer.zoom)), to: url)
                    copied = layer.zoom
                } else {
                    try GeoJSONZoomWriter.write(layer, table: table, thinning: thinning, to: url)
                }
                SQLiteBuild.fsync(url)
                return copied
            }
        }
        return try results.compactMap { try $0.get() }
    }

    /// Writes the export state: an entry per tile record and per oversize tile.
    private static func writeState(records: [TileRecord], offsets: [UInt64], oversize: [ExportState.Entry],
                                   optionsDigest: UInt64, metadataDigest: UInt64, heldEvents: Int, maximaDigest: UInt64,
                                   cuts: [Thinning.GuardAction], geoJSONDigests: [Int: UInt64], version: String, to url: URL) throws {
        try ExportState.write(optionsDigest: optionsDigest, metadataDigest: metadataDigest, heldEvents: heldEvents,
                              maximaDigest: maximaDigest, cuts: cuts, geoJSONDigests: geoJSONDigests, version: version,
                              count: records.count + oversize.count, entry: { i in
            guard i < records.count else { return oversize[i - records.count] }
            let record = records[i]
            return ExportState.Entry(key: record.key.packed, contentHash: record.contentHash, offset: offsets[i], length: record.length,
                                     oversize: false, dataHash: record.dataHash, events: UInt32(record.events),
                                     clusters: UInt32(record.clusters))
        }, to: url)
    }

    /// Writes a file of the (unpublished) bundle and flushes it to disk.
    static func write(_ data: Data, to url: URL) throws {
        try data.write(to: url)
        SQLiteBuild.fsync(url)
    }
}

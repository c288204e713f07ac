import Foundation
import QuakeCommon
import QuakeTiles

/// Turns the events into gzip MVT tiles for every zoom.
///
/// Each tile's content (its shown events with their minzoom and feature id, its
/// clusters) has a fingerprint; a tile whose fingerprint matches the previous
/// bundle's tile at the same address is taken from there instead of being
/// encoded, so an incremental export encodes only the tiles whose content changed
/// (a changed event's tile and the ancestors it reaches, plus the tiles of events
/// whose minzoom moved because of it), and its output equals a full export.
///
/// With the event cache, a tile none of whose events changed (content, minzoom or
/// feature id) and that lost no event since the previous export is taken from there
/// without even computing its content.
///
/// The size guard: a tile that compresses to more than `maxTileBytes` gets a cap
/// on its events (proportional to the overshoot, with a 10% margin) and thinning
/// reruns with the caps; a tile none of whose events changed its minzoom keeps
/// what the previous pass made of it. A tile of `sampledFrom` events or more is first
/// sized from a sample (every `sampleStride`-th event, encoded and compressed, scaled
/// up): when that estimate is over 1.25 times the limit, the tile is too big at the
/// estimated size without being encoded whole. Full and incremental exports decide
/// alike, as the sample depends only on the tile's content.
struct TileBaker {
    let table: EventTable
    let points: PointSet
    let featureIDs: FeatureIDs
    let options: ThinningOptions
    /// The previous bundle's state, when its tiles may be reused.
    let previous: ExportState?
    /// What the previous export knew of each event, when the event cache was used.
    let unchanged: UnchangedEvents?
    let data: TileData
    let progress: any ProgressSink

    struct Result {
        let thinning: Thinning
        /// Every tile, by zoom then Morton order.
        let records: [TileRecord]
        /// Tiles (pre-guard content) found too big, for the next export's state.
        let oversize: [ExportState.Entry]
        /// Tiles encoded in this run (all passes).
        let encoded: Int
        /// Features (events and clusters) of the tiles encoded, and their MVT bytes before gzip.
        let encodedFeatures: Int
        let encodedBytes: Int
        /// Tiles of the result taken from the previous bundle.
        let reused: Int
        /// Size-guard passes (1 when no tile was too big).
        let passes: Int
        /// Wall seconds spent thinning (every pass thins all events at every zoom).
        let thinningSeconds: Double
        /// Whether the thinning was the previous export's (see `previousThinning`).
        let thinningTaken: Bool
    }

    /// Per event, what the previous export knew of it (see `SelectionRead.Previous`).
    struct UnchangedEvents: Sendable {
        /// True when the event was in the previous export with the same fingerprint and feature id.
        let known: [Bool]
        /// Its minzoom there (meaningful where `known`).
        let minZoom: [UInt8]
        /// Packed keys of tiles that showed an event of the previous export that is now gone or elsewhere.
        let staleTiles: Set<UInt64>
    }

    private enum Outcome: Sendable {
        case empty
        case known(TileRecord)
        case fresh(key: TileKey, contentHash: UInt64, bytes: [UInt8], events: Int, clusters: Int, mvtBytes: Int)
        /// Too big; `measured` when it was encoded now rather than known from before,
        /// `repeated` when taken over from the previous pass.
        case oversize(key: TileKey, contentHash: UInt64, size: Int, events: Int, measured: Bool, repeated: Bool, features: Int, mvtBytes: Int)
        case failed(String)
    }

    /// Tiles handed to the cores at a time, and the events they may hold together:
    /// bounds the memory of encoded tiles waiting to be written.
    private static let batchTiles = 2048
    private static let batchEvents = 50_000

    /// Events from which a tile is sized from a sample first, and the sample's stride.
    private static let sampledFrom = 8_000
    private static let sampleStride = 8

    /// What a pass made of each tile run: a record, an oversize tile, or nothing.
    private enum Made {
        case record(TileRecord)
        case oversize(key: TileKey, size: Int, events: Int)
        case empty
    }

    /// Where a pass put one tile run: its record, its entry among the tiles too big, or nowhere.
    private enum Slot {
        case empty
        case record(Int32)
        case tooBig(Int32)
    }

    /// A finished pass, compactly: per zoom and run, a slot in `records` or `tooBig`.
    private struct Pass {
        let minZoom: [UInt8]
        let choice: Thinning.Choice?
        let records: [TileRecord]
        let tooBig: [(key: TileKey, size: Int, events: Int)]
        let slots: [[Slot]]

        func made(zoom: Int, run: Int) -> Made {
            switch slots[zoom][run] {
            case .empty: return .empty
            case .record(let i): return .record(records[Int(i)])
            case .tooBig(let i):
                let big = tooBig[Int(i)]
                return .oversize(key: big.key, size: big.size, events: big.events)
            }
        }
    }

    /// Encoding work of all passes together.
    private struct Work {
        var encoded = 0, features = 0, bytes = 0
    }

    /// What one pass makes, tile run by tile run, in order.
    private struct PassOutput {
        var records: [TileRecord] = []
        var tooBig: [(key: TileKey, size: Int, events: Int)] = []
        var slots: [[Slot]]

        init(maxZoom: Int) { slots = Array(repeating: [], count: maxZoom + 1) }

        /// Files `outcome`, the next run of `zoom`: fresh tile bytes go to `data`, tiles found too
        /// big for the first time to `oversize` (for the next export's state).
        mutating func take(_ outcome: Outcome, zoom: Int, data: TileData, work: inout Work,
                           oversize: inout [ExportState.Entry]) throws {
            switch outcome {
            case .empty:
                slots[zoom].append(.empty)
            case .known(let record):
                slots[zoom].append(.record(Int32(records.count)))
                records.append(record)
            case .fresh(let key, let contentHash, let bytes, let events, let clusters, let mvtBytes):
                let offset = try data.append(bytes)
                work.encoded += 1
                work.features += events + clusters
                work.bytes += mvtBytes
                slots[zoom].append(.record(Int32(records.count)))
                records.append(TileRecord(key: key, contentHash: contentHash, origin: .fresh, offset: offset,
                                          length: UInt32(bytes.count), dataHash: DataHash(bytes),
                                          events: Int32(events), clusters: Int32(clusters)))
            case .oversize(let key, let contentHash, let size, let events, let measured, let repeated, let features, let mvtBytes):
                if measured {
                    work.encoded += 1
                    work.features += features
                    work.bytes += mvtBytes
                }
                if !repeated {
                    oversize.append(ExportState.Entry(key: key.packed, contentHash: contentHash, offset: 0, length: UInt32(size),
                                                      oversize: true, dataHash: DataHash(a: 0, b: 0), events: UInt32(events), clusters: 0))
                }
                slots[zoom].append(.tooBig(Int32(tooBig.count)))
                tooBig.append((key, size, events))
            case .failed(let message):
                throw QuakeBakeError(message)
            }
        }
    }

    /// Thins and encodes pass after pass until no tile is too big (see the size guard above).
    func bake() throws -> Result {
        var limits: [TileKey: Int] = [:]
        var lastPass: Pass?
        var oversize: [ExportState.Entry] = []
        var work = Work()
        let zooms = options.minZoom...options.maxZoom
        let planned = zooms.reduce(0) { $0 + TileRun.all(points: points, zoom: $1).count }
        var thinningSeconds = 0.0
        var pass = 0
        let comparing = Date()
        let (previousTaken, biggestFirst) = previousThinning()
        var taken = previousTaken
        thinningSeconds += Date().timeIntervalSince(comparing)
        while true {
            pass += 1
            let thinningStarted = Date()
            let thinning = taken ?? Thinning(points: points, options: options, byteLimits: limits, reusing: lastPass?.choice,
                                             biggestFirst: biggestFirst)
            thinningSeconds += Date().timeIntervalSince(thinningStarted)
            let maker = RunMaker(baker: self, thinning: thinning, lastPass: lastPass)
            var output = PassOutput(maxZoom: options.maxZoom)
            var done = 0
            for zoom in zooms {
                let runs = TileRun.all(points: points, zoom: zoom)
                output.slots[zoom].reserveCapacity(runs.count)
                for batch in Self.batches(runs) {
                    let made = Parallel.map(batch.count) { i in maker.make(runs[batch.lowerBound + i], number: batch.lowerBound + i, zoom: zoom) }
                    for outcome in made { try output.take(outcome, zoom: zoom, data: data, work: &work, oversize: &oversize) }
                    table.spill?.releaseResident()  // the batch's columns: the next batch reads others
                    done += batch.count
                    progress.update(ProgressSnapshot(stage: "export", done: done, total: planned, unit: "tiles",
                                                     detail: pass == 1 ? "zoom \(zoom)" : "zoom \(zoom), size-guard pass \(pass)"))
                }
                FreedMemory.release()
            }
            if output.tooBig.isEmpty {
                let reused = output.records.reduce(0) { $0 + ($1.origin == .previous ? 1 : 0) }
                // A thinning taken over had no first pass to find the tiles too big: they are the previous export's.
                let tooBig = taken != nil ? (previous?.entries.filter(\.oversize) ?? []) : oversize
                return Result(thinning: thinning, records: output.records, oversize: tooBig, encoded: work.encoded,
                              encodedFeatures: work.features, encodedBytes: work.bytes, reused: reused, passes: pass,
                              thinningSeconds: thinningSeconds, thinningTaken: taken != nil)
            }
            if taken != nil {
                // Not expected (its tiles were all made before, within the limits); thin anew rather than trust it.
                taken = nil
                oversize = []
                continue
            }
            for tile in output.tooBig {
                guard tile.events > 0 else {
                    throw QuakeBakeError(.overLimit, "tile \(tile.key) holds only clusters and still compresses to \(tile.size) bytes, over the \(options.maxTileBytes)-byte limit; use a larger --cell-size")
                }
                let proportional = Int(Double(tile.events) * Double(options.maxTileBytes) / Double(tile.size) * 0.9)
                limits[tile.key] = min(limits[tile.key] ?? .max, min(proportional, tile.events - 1))
            }
            lastPass = nil
            lastPass = Pass(minZoom: thinning.minZoom, choice: thinning.choice, records: output.records, tooBig: output.tooBig,
                            slots: output.slots)
        }
    }

    /// The previous export's thinning, when it is this one's: every event of the tiles is one
    /// the previous export knew, unchanged and under the same feature id, none of its events
    /// is gone, there are as many, and the recent layer's quakes make the thinning draw the same
    /// maxima (a cron run whose changes are all in the recent layer). The thinning depends on
    /// nothing else, so only the biggest-first sweeps run again, not the cover.
    /// When those maxima differ, the biggest-first sweeps made to find them are returned for the
    /// thinning (they are the same).
    private func previousThinning() -> (Thinning?, Thinning.BiggestFirst?) {
        guard let previous, let unchanged, unchanged.staleTiles.isEmpty, previous.heldEvents == points.byRank.count,
              points.byRank.allSatisfy({ unchanged.known[Int($0)] }) else { return (nil, nil) }
        var biggestFirst: Thinning.BiggestFirst?
        if options.method == .spacing && !points.apartBySize.isEmpty {
            biggestFirst = Thinning.BiggestFirst(points: points, options: options)
        }
        let maxima = biggestFirst?.wholeSelectionMaxima ?? []
        guard ExportState.maximaDigest(maxima, table: table) == previous.maximaDigest else { return (nil, biggestFirst) }
        var minZoom = [UInt8](repeating: UInt8(options.maxZoom), count: points.count)
        for event in points.byRank { minZoom[Int(event)] = unchanged.minZoom[Int(event)] }
        return (Thinning(minZoom: minZoom, actions: previous.cuts, wholeSelectionMaxima: maxima), nil)
    }

    /// The runs in batches of at most `batchTiles` tiles and (unless one tile alone is more) `batchEvents` events.
    private static func batches(_ runs: [TileRun]) -> [Range<Int>] {
        var batches: [Range<Int>] = []
        var start = 0
        while start < runs.count {
            var end = start + 1, events = runs[start].range.count
            while end < runs.count && end - start < batchTiles && events + runs[end].range.count <= batchEvents {
                events += runs[end].range.count
                end += 1
            }
            batches.append(start..<end)
            start = end
        }
        return batches
    }

    /// Decides one tile run of a pass: taken over from the previous pass or the previous
    /// export when none of its events changed, else made (`outcome`).
    private struct RunMaker: @unchecked Sendable {
        let baker: TileBaker
        let thinning: Thinning
        let lastPass: Pass?
        let encoder: TileEncoder
        /// Events whose minzoom changed since the last pass, counted along the Morton order.
        let changedBefore: [Int32]?
        /// Events new, changed or moved since the previous export (first pass only), likewise.
        let dirtyBefore: [Int32]?

        init(baker: TileBaker, thinning: Thinning, lastPass: Pass?) {
            self.baker = baker
            self.thinning = thinning
            self.lastPass = lastPass
            encoder = TileEncoder(table: baker.table, points: baker.points, featureIDs: baker.featureIDs, minZoom: thinning.minZoom)
            changedBefore = lastPass.map { TileBaker.changedBefore(points: baker.points, old: $0.minZoom, new: thinning.minZoom) }
            dirtyBefore = lastPass == nil && baker.previous != nil
                ? baker.unchanged.map { TileBaker.dirtyBefore(points: baker.points, $0, minZoom: thinning.minZoom) } : nil
        }

        func make(_ run: TileRun, number: Int, zoom: Int) -> Outcome {
            let range = run.range
            if let changedBefore, let lastPass, changedBefore[range.upperBound] == changedBefore[range.lowerBound] {
                switch lastPass.made(zoom: zoom, run: number) {
                case .record(let record): return .known(record)
                case .oversize(let key, let size, let events):
                    return .oversize(key: key, contentHash: 0, size: size, events: events, measured: false, repeated: true,
                                     features: 0, mvtBytes: 0)
                case .empty: return .empty
                }
            }
            if let dirtyBefore, dirtyBefore[range.upperBound] == dirtyBefore[range.lowerBound], let record = baker.unchangedRecord(run) {
                return .known(record)
            }
            return baker.outcome(run, thinning: thinning, encoder: encoder)
        }
    }

    /// For each position i of the Morton order, how many of the events before it changed
    /// their minzoom between two passes: a run [a, b) has no changed event when the counts
    /// at a and b are equal.
    private static func changedBefore(points: PointSet, old: [UInt8], new: [UInt8]) -> [Int32] {
        var counts = [Int32](repeating: 0, count: points.count + 1)
        for (i, event) in points.order.enumerated() {
            counts[i + 1] = counts[i] + (old[Int(event)] == new[Int(event)] ? 0 : 1)
        }
        return counts
    }

    /// Like `changedBefore`, for the first pass against the previous export: events that are
    /// new or changed, or whose minzoom differs from the one they had then.
    private static func dirtyBefore(points: PointSet, _ unchanged: UnchangedEvents, minZoom: [UInt8]) -> [Int32] {
        var counts = [Int32](repeating: 0, count: points.count + 1)
        for (i, event) in points.order.enumerated() {
            let e = Int(event)
            counts[i + 1] = counts[i] + (unchanged.known[e] && unchanged.minZoom[e] == minZoom[e] ? 0 : 1)
        }
        return counts
    }

    /// The previous bundle's tile of a run none of whose events changed, unless the tile lost an event.
    private func unchangedRecord(_ run: TileRun) -> TileRecord? {
        guard let unchanged, !unchanged.staleTiles.contains(run.key.packed), let entry = previous?.finalEntry(run.key) else { return nil }
        return TileRecord(key: run.key, contentHash: entry.contentHash, origin: .previous, offset: entry.offset, length: entry.length,
                          dataHash: entry.dataHash, events: Int32(entry.events), clusters: Int32(entry.clusters))
    }

    /// One tile: reused when its fingerprint is known, else encoded and compressed.
    private func outcome(_ run: TileRun, thinning: Thinning, encoder: TileEncoder) -> Outcome {
        guard let content = TileContent(run: run, points: points, minZoom: thinning.minZoom, options: options) else { return .empty }
        let hash = content.fingerprint(table: table, featureIDs: featureIDs, minZoom: thinning.minZoom)
        if let entry = previous?.lookup(run.key, contentHash: hash) {
            if entry.oversize {
                return .oversize(key: run.key, contentHash: hash, size: Int(entry.length), events: content.events.count,
                                 measured: false, repeated: false, features: 0, mvtBytes: 0)
            }
            return .known(TileRecord(key: run.key, contentHash: hash, origin: .previous, offset: entry.offset, length: entry.length,
                                     dataHash: entry.dataHash, events: Int32(content.events.count), clusters: Int32(content.clusters.count)))
        }
        do {
            if content.events.count >= Self.sampledFrom {
                let sample = content.sample(every: Self.sampleStride)
                let mvt = encoder.encode(sample)
                let estimate = try mvt.withUnsafeBytes { try Gzip.compress(bytes: $0) }.count * content.events.count / sample.events.count
                if estimate > options.maxTileBytes + options.maxTileBytes / 4 {
                    return .oversize(key: run.key, contentHash: hash, size: estimate, events: content.events.count,
                                     measured: true, repeated: false, features: sample.featureCount, mvtBytes: mvt.count)
                }
            }
            let mvt = encoder.encode(content)
            let compressed = try mvt.withUnsafeBytes { try Gzip.compress(bytes: $0) }
            if compressed.count > options.maxTileBytes {
                return .oversize(key: run.key, contentHash: hash, size: compressed.count, events: content.events.count,
                                 measured: true, repeated: false, features: content.featureCount, mvtBytes: mvt.count)
            }
            return .fresh(key: run.key, contentHash: hash, bytes: compressed,
                          events: content.events.count, clusters: content.clusters.count, mvtBytes: mvt.count)
        } catch {
            return .failed("cannot compress tile \(run.key): \(error)")
        }
    }
}

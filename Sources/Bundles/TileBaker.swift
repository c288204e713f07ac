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

    /// A finished pass, compactly: per zoom and run, an index into `records` (≥ 0),
    /// into `tooBig` (-2 - i), or -1 for an empty run.
    private struct Pass {
        let minZoom: [UInt8]
        let choice: Thinning.Choice?
        let records: [TileRecord]
        let tooBig: [(key: TileKey, size: Int, events: Int)]
        let slots: [[Int32]]

        func made(zoom: Int, run: Int) -> Made {
            let slot = slots[zoom][run]
            if slot >= 0 { return .record(records[Int(slot)]) }
            if slot == -1 { return .empty }
            let big = tooBig[Int(-2 - slot)]
            return .oversize(key: big.key, size: big.size, events: big.events)
        }
    }

    func bake() throws -> Result {
        var limits: [TileKey: Int] = [:]
        var lastPass: Pass?
        var oversize: [ExportState.Entry] = []
        var encoded = 0, encodedFeatures = 0, encodedBytes = 0
        var pass = 1
        let zooms = options.minZoom...options.maxZoom
        let planned = zooms.reduce(0) { $0 + TileRun.all(points: points, zoom: $1).count }
        var thinningSeconds = 0.0
        while true {
            let thinningStarted = Date()
            let thinning = Thinning(points: points, options: options, byteLimits: limits, reusing: lastPass?.choice)
            thinningSeconds += Date().timeIntervalSince(thinningStarted)
            let encoder = TileEncoder(table: table, points: points, featureIDs: featureIDs, minZoom: thinning.minZoom)
            let changedBefore = lastPass.map { Self.changedBefore(points: points, old: $0.minZoom, new: thinning.minZoom) }
            let dirtyBefore = lastPass == nil && previous != nil ? unchanged.map { Self.dirtyBefore(points: points, $0, minZoom: thinning.minZoom) } : nil
            var records: [TileRecord] = []
            var tooBig: [(key: TileKey, size: Int, events: Int)] = []
            var slots: [[Int32]] = Array(repeating: [], count: options.maxZoom + 1)
            var done = 0
            for zoom in zooms {
                let runs = TileRun.all(points: points, zoom: zoom)
                slots[zoom].reserveCapacity(runs.count)
                var start = 0
                while start < runs.count {
                    var end = start + 1, events = runs[start].range.count
                    while end < runs.count && end - start < Self.batchTiles && events + runs[end].range.count <= Self.batchEvents {
                        events += runs[end].range.count
                        end += 1
                    }
                    let first = start
                    let made = Parallel.map(end - start) { [self, lastPass] i -> Outcome in
                        let run = runs[first + i]
                        if let changedBefore, let lastPass, changedBefore[run.range.upperBound] == changedBefore[run.range.lowerBound] {
                            switch lastPass.made(zoom: zoom, run: first + i) {
                            case .record(let record): return .known(record)
                            case .oversize(let key, let size, let events):
                                return .oversize(key: key, contentHash: 0, size: size, events: events, measured: false, repeated: true,
                                                 features: 0, mvtBytes: 0)
                            case .empty: return .empty
                            }
                        }
                        if let dirtyBefore, dirtyBefore[run.range.upperBound] == dirtyBefore[run.range.lowerBound],
                           let record = unchangedRecord(run) {
                            return .known(record)
                        }
                        return outcome(run, thinning: thinning, encoder: encoder)
                    }
                    for outcome in made {
                        switch outcome {
                        case .empty:
                            slots[zoom].append(-1)
                        case .known(let record):
                            slots[zoom].append(Int32(records.count))
                            records.append(record)
                        case .fresh(let key, let contentHash, let bytes, let events, let clusters, let mvtBytes):
                            let offset = try data.append(bytes)
                            encoded += 1
                            encodedFeatures += events + clusters
                            encodedBytes += mvtBytes
                            slots[zoom].append(Int32(records.count))
                            records.append(TileRecord(key: key, contentHash: contentHash, origin: .fresh, offset: offset,
                                                      length: UInt32(bytes.count), dataHash: DataHash(bytes),
                                                      events: Int32(events), clusters: Int32(clusters)))
                        case .oversize(let key, let contentHash, let size, let events, let measured, let repeated, let features, let mvtBytes):
                            if measured {
                                encoded += 1
                                encodedFeatures += features
                                encodedBytes += mvtBytes
                            }
                            if !repeated {
                                oversize.append(ExportState.Entry(key: key.packed, contentHash: contentHash, offset: 0, length: UInt32(size),
                                                                  oversize: true, dataHash: DataHash(a: 0, b: 0),
                                                                  events: UInt32(events), clusters: 0))
                            }
                            slots[zoom].append(Int32(-2 - tooBig.count))
                            tooBig.append((key, size, events))
                        case .failed(let message): throw QuakeBakeError(message)
                        }
                    }
                    done += end - start
                    start = end
                    progress.update(ProgressSnapshot(stage: "export", done: done, total: planned, unit: "tiles",
                                                     detail: pass == 1 ? "zoom \(zoom)" : "zoom \(zoom), size-guard pass \(pass)"))
                }
                FreedMemory.release()
            }
            if tooBig.isEmpty {
                let reused = records.reduce(0) { $0 + ($1.origin == .previous ? 1 : 0) }
                return Result(thinning: thinning, records: records, oversize: oversize,
                              encoded: encoded, encodedFeatures: encodedFeatures, encodedBytes: encodedBytes, reused: reused, passes: pass,
                              thinningSeconds: thinningSeconds)
            }
            for tile in tooBig {
                guard tile.events > 0 else {
                    throw QuakeBakeError("tile \(tile.key) holds only clusters and still compresses to \(tile.size) bytes, over the \(options.maxTileBytes)-byte limit; use a larger --cell-size")
                }
                let proportional = Int(Double(tile.events) * Double(options.maxTileBytes) / Double(tile.size) * 0.9)
                limits[tile.key] = min(limits[tile.key] ?? .max, min(proportional, tile.events - 1))
            }
            lastPass = nil
            lastPass = Pass(minZoom: thinning.minZoom, choice: thinning.choice, records: records, tooBig: tooBig, slots: slots)
            pass += 1
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

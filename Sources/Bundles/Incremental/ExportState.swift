import QuakeCatalog
import Foundation
import QuakeCommon
import QuakeTiles

/// What an export leaves for the next one: per tile, the content fingerprint and where
/// its bytes sit in the version's `quakes.pmtiles`, plus the fingerprints of tiles the
/// size guard found too big (with their size), so an incremental export reruns the same
/// decisions without re-encoding.
///
/// Like the event cache it is ours, not the app's: it lives in `<out>/.export-cache/
/// export-state.bin`, names (by digest) the version directory whose PMTiles it describes,
/// and is used only while that version is current.
///
/// It also keeps the thinning's size-guard cuts, how many events the tiles were made of and
/// a digest of the maxima the recent layer's quakes made the thinning draw, so that an export
/// whose tiles' events and those maxima are all as before takes the thinning over (see `TileBaker`),
/// and the digest of each GeoJSON zoom it wrote (`GeoJSONZoomWriter.digest`), so that a zoom whose
/// points are as before is copied from the version instead of written again.
///
/// Binary, little-endian: magic `QBEXPST7`, options digest (u64), version digest (u64),
/// metadata digest (u64, `TilesetMetadata.digest`), events in the tiles (u64), maxima digest
/// (u64, `maximaDigest`), entry count (u64), cut count (u64), GeoJSON zoom count (u64); then
/// 56-byte entries sorted by tile: packed key, content hash, offset, length (u32), flags (u32,
/// 1 = oversize), data hash (2 × u64), events and clusters in the tile (2 × u32); then 24-byte
/// cuts in the thinning's order: packed key, events, kept, reason (u32 each: 0 features, 1
/// bytes), zero (u32); then 16-byte GeoJSON zooms: zoom, digest (u64 each).
struct ExportState: Sendable {
    static let fileName = "export-state.bin"
    static let magic = Array("QBEXPST7".utf8)
    private static let entrySize = 56
    private static let headerSize = 72
    private static let cutSize = 24
    private static let geoJSONSize = 16

    /// The state file under the output directory `out`.
    static func url(out: URL) -> URL {
        out.appendingPathComponent(EventCache.directoryName).appendingPathComponent(fileName)
    }

    /// The digest by which a state names its version directory.
    static func versionDigest(_ version: String) -> UInt64 {
        SipHasher.hash(Array(version.utf8))
    }

    struct Entry: Sendable {
        let key: UInt64
        let contentHash: UInt64
        /// Absolute offset in the bundle's `quakes.pmtiles` (0 for oversize entries).
        let offset: UInt64
        /// Bytes in the PMTiles, or the compressed size an oversize tile had.
        let length: UInt32
        let oversize: Bool
        let dataHash: DataHash
        /// Events and clusters the tile shows.
        let events: UInt32
        let clusters: UInt32
    }

    /// Digest of the options that shape tile bytes; entries are reusable only when it matches.
    let optionsDigest: UInt64
    /// Digest of the metadata the version's archives hold (`TilesetMetadata.digest`).
    let metadataDigest: UInt64
    /// Events the tiles were made of (the point set's).
    let heldEvents: Int
    /// `maximaDigest` of the thinning's `wholeSelectionMaxima`.
    let maximaDigest: UInt64
    /// Sorted by key, then oversize flag, then content hash.
    let entries: [Entry]
    /// The thinning's size-guard cuts, in its order.
    let cuts: [Thinning.GuardAction]
    /// Per GeoJSON zoom of the version: `GeoJSONZoomWriter.digest` of its file.
    let geoJSONDigests: [Int: UInt64]

    /// A state of `entries`, sorted by key, oversize flag and content hash.
    init(optionsDigest: UInt64, metadataDigest: UInt64, heldEvents: Int, maximaDigest: UInt64, entries: [Entry], cuts: [Thinning.GuardAction],
         geoJSONDigests: [Int: UInt64]) {
        self.optionsDigest = optionsDigest
        self.metadataDigest = metadataDigest
        self.heldEvents = heldEvents
        self.maximaDigest = maximaDigest
        self.entries = entries
        self.cuts = cuts
        self.geoJSONDigests = geoJSONDigests
    }

    /// The tiles of the version's archives (the oversize entries are not tiles).
    var tileCount: Int { entries.reduce(0) { $0 + ($1.oversize ? 0 : 1) } }

    /// Whether `a` comes before `b` in a state.
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        (a.key, a.oversize ? 1 : 0, a.contentHash) < (b.key, b.oversize ? 1 : 0, b.contentHash)
    }

    /// The digest of the tile-shaping options (bump `encoderVersion` whenever tile bytes change for the same input)
    /// and, with a recent layer, of its boundary: the tiles of another boundary hold other events.
    static func optionsDigest(_ options: ExportOptions, recentSince: Int64? = nil) -> UInt64 {
        // 3: tiles gzipped by libdeflate; 4: big tiles sized from a sample first; 5: the heat layer,
        // and quakes beyond the world's edge keep none inside it out (issue 48)
        let encoderVersion = 5
        let recent: [(String, JSON)] = recentSince.map { [("recent_since", .int($0))] } ?? []
        let text = JSON.object([("encoder", .int(encoderVersion)),
                                ("thinning", options.contentJSON["thinning"] ?? .null),
                                ("attributes", options.contentJSON["attributes"] ?? .null)] + recent).text
        return SipHasher.hash(Array(text.utf8))
    }

    /// The entry for tile `key` with content `contentHash`, if any.
    func lookup(_ key: TileKey, contentHash: UInt64) -> Entry? {
        let packed = key.packed
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].key < packed { low = mid + 1 } else { high = mid }
        }
        while low < entries.count && entries[low].key == packed {
            if entries[low].contentHash == contentHash { return entries[low] }
            low += 1
        }
        return nil
    }

    /// The tile `key` as the bundle holds it (not an oversize entry), if any.
    func finalEntry(_ key: TileKey) -> Entry? {
        let packed = key.packed
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].key < packed { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].key == packed, !entries[low].oversize else { return nil }
        return entries[low]
    }

    /// Writes the state of version directory `version`, `count` entries, `entry(i)` each, to `url`
    /// and flushes it to disk.
    /// At 200,000 tiles the entries are some 12 MB and this runs at the export's memory peak:
    /// each is made as it is written, in the file's order (only their keys are held, to sort
    /// by), through a 64 KB buffer.
    static func write(optionsDigest: UInt64, metadataDigest: UInt64, heldEvents: Int, maximaDigest: UInt64, cuts: [Thinning.GuardAction],
                      geoJSONDigests: [Int: UInt64], version: String, count: Int, entry: (Int) -> Entry, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let order = RadixSort.order(by: (0..<count).map { entry($0).key }) { precedes(entry($0), entry($1)) }
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw QuakeBakeError("cannot create \(url.path)") }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16 + Self.entrySize)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        out.append(contentsOf: Self.magic)
        put(optionsDigest)
        put(versionDigest(version))
        put(metadataDigest)
        put(UInt64(heldEvents))
        put(maximaDigest)
        put(UInt64(count))
        put(UInt64(cuts.count))
        put(UInt64(geoJSONDigests.count))
        for i in order {
            let e = entry(Int(i))
            put(e.key); put(e.contentHash); put(e.offset); put(e.length); put(UInt32(e.oversize ? 1 : 0))
            put(e.dataHash.a); put(e.dataHash.b); put(e.events); put(e.clusters)
            if out.count >= 1 << 16 {
                try file.write(contentsOf: out)
                out.removeAll(keepingCapacity: true)
            }
        }
        for cut in cuts {
            put(cut.tile.packed); put(UInt32(cut.events)); put(UInt32(cut.kept)); put(UInt32(cut.reason == .bytes ? 1 : 0)); put(UInt32(0))
        }
        for (zoom, digest) in geoJSONDigests.sorted(by: { $0.key < $1.key }) {
            put(UInt64(zoom)); put(digest)
        }
        try file.write(contentsOf: out)
        try file.synchronize()
    }

    /// Reads the state file of version directory `version`; `nil` when absent, of another version or
    /// not understood (the export then encodes every tile).
    static func read(_ url: URL, version: String) -> ExportState? {
        guard let data = try? Data(contentsOf: url), data.count >= headerSize, Array(data.prefix(8)) == magic else { return nil }
        return data.withUnsafeBytes { raw -> ExportState? in
            func u64(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            func u32(_ at: Int) -> UInt32 { UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
            guard u64(16) == versionDigest(version) else { return nil }
            guard let held = Int(exactly: u64(32)), let count = Int(exactly: u64(48)), let cutCount = Int(exactly: u64(56)),
                  let geoJSONCount = Int(exactly: u64(64)),
                  count <= data.count / entrySize, cutCount <= data.count / cutSize, geoJSONCount <= data.count / geoJSONSize,
                  data.count == headerSize + count * entrySize + cutCount * cutSize + geoJSONCount * geoJSONSize else { return nil }
            var entries: [Entry] = []
            entries.reserveCapacity(count)
            for i in 0..<count {
                let p = headerSize + i * entrySize
                entries.append(Entry(key: u64(p), contentHash: u64(p + 8), offset: u64(p + 16), length: u32(p + 24),
                                     oversize: u32(p + 28) == 1, dataHash: DataHash(a: u64(p + 32), b: u64(p + 40)),
                                     events: u32(p + 48), clusters: u32(p + 52)))
            }
            // Written in order; a file that is not was not written by this export.
            guard zip(entries, entries.dropFirst()).allSatisfy({ !precedes($1, $0) }) else { return nil }
            let cuts = (0..<cutCount).map { i -> Thinning.GuardAction in
                let p = headerSize + count * entrySize + i * cutSize
                return Thinning.GuardAction(tile: TileKey(packed: u64(p)), events: Int(u32(p + 8)), kept: Int(u32(p + 12)),
                                            reason: u32(p + 16) == 1 ? .bytes : .features)
            }
            var geoJSONDigests: [Int: UInt64] = [:]
            for i in 0..<geoJSONCount {
                let p = headerSize + count * entrySize + cutCount * cutSize + i * geoJSONSize
                guard let zoom = Int(exactly: u64(p)), zoom <= 30 else { return nil }
                geoJSONDigests[zoom] = u64(p + 8)
            }
            return ExportState(optionsDigest: u64(8), metadataDigest: u64(24), heldEvents: held, maximaDigest: u64(40), entries: entries, cuts: cuts,
                               geoJSONDigests: geoJSONDigests)
        }
    }

    /// A digest of a thinning's `wholeSelectionMaxima` that does not depend on the order of the
    /// table: the events' fingerprints with their zooms, sorted.
    static func maximaDigest(_ maxima: [Thinning.Maximum], table: EventTable) -> UInt64 {
        var hasher = SipHasher()
        hasher.combine(UInt64(maxima.count))
        for (fingerprint, zooms) in maxima.map({ (table.fingerprint[$0.event], $0.zooms) }).sorted(by: { $0 < $1 }) {
            hasher.combine(fingerprint)
            hasher.combine(UInt64(zooms))
        }
        return hasher.finalize()
    }
}

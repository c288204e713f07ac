import Foundation
import Logging
import QuakeBundleFormat
import QuakeBundleKit
import QuakeCommon

/// The published PMTiles object of a new version, built so that a cron run's publish
/// uploads a few megabytes of it, not all of it.
///
/// Web clients read `quakes.pmtiles` by range requests, so the pointer must name the current
/// tiles, and a changed tile changes the whole file. The object published is therefore not
/// the bundle's own file but one the store assembles (`PMTilesLayout`): a multipart upload
/// whose first part (uploaded; at least `minimumPartBytes`, S3's smallest part) holds the new
/// header, directories, metadata, the new and changed tiles and a few old ones, and whose
/// last part is a server-side copy (`UploadPartCopy`) of the previously published object's
/// tile data. Its directories point into the copied bytes for unchanged tiles. The tile data
/// is then not clustered, and holds dead bytes (old versions of changed tiles); past
/// `maxDeadShare` of it, or with no previous object kept locally (`PublishScratch`), the
/// bundle's own file is published whole (clustered, compact). Every object is checked tile by
/// tile against the bundle's own PMTiles in the tests.
///
/// The uploaded part is at least 5 MiB even when a few tiles changed: the other small files
/// the publish must upload anyway (the GeoJSON zooms, the recent layer, the deltas that
/// changed) ride in it, between the leaf directories and the tile data (bytes no section
/// names, which readers never read), and the store then makes each of them by copying its
/// range out of the PMTiles object (a one-part `UploadPartCopy`): each byte is uploaded once.
/// Being outside the tile data, they are never copied into the next object.
final class PMTilesComposer: @unchecked Sendable {
    private let client: S3Client
    private let target: S3Target
    private let scratch: PublishScratch
    private let previous: PublishedFile?
    private let previousVersion: String?
    private let minimumPartBytes: Int64
    private let logger: Logger
    /// The local file of the object planned (the bundle's own, or the composed one) and its sha256.
    private var planned: (url: URL, sha256: String)?

    /// The most dead bytes a composed object's tile data may hold (a share of it).
    static let maxDeadShare = 0.25

    init(client: S3Client, target: S3Target, scratch: PublishScratch, previous: PublishedPointer?, minimumPartBytes: Int64, logger: Logger) {
        self.client = client
        self.target = target
        self.scratch = scratch
        self.previous = previous?.files.first { $0.name == BundleFileName.pmtiles }
        previousVersion = previous?.bundleVersion
        self.minimumPartBytes = minimumPartBytes
        self.logger = logger
    }

    /// The object for the bundle's PMTiles `file`, and the new plans of those of `riders` that ride in it.
    func plan(_ file: BundleManifest.File, riders: [PlannedObject], bundle: BundleManifest) async throws -> (PlannedObject, [PlannedObject]) {
        let object = try await plan(file, carrying: riders.filter { if case .file = $0.source { true } else { false } }, bundle: bundle)
        return (object.pmtiles, object.riders)
    }

    private func plan(_ file: BundleManifest.File, carrying riders: [PlannedObject],
                      bundle: BundleManifest) async throws -> (pmtiles: PlannedObject, riders: [PlannedObject]) {
        let url = bundle.url(file.path)
        let whole = PlannedObject(key: "objects/\(file.sha256).pmtiles", bytes: file.bytes, sha256: file.sha256,
                                  contentType: ObjectKinds.contentType(file.path), source: .file(url))
        planned = (url, file.sha256)
        guard let previous, previous.sha256 != file.sha256, try await client.head(target.key(previous.key))?.size == previous.bytes else {
            return (whole, [])
        }
        if previousVersion == bundle.version {
            // The same version published again: its object as it is (composing anew would make another).
            planned = nil
            return (PlannedObject(key: previous.key, bytes: previous.bytes, sha256: previous.sha256, contentType: whole.contentType, source: .store), [])
        }
        guard let old = scratch.publishedPMTiles(previous.sha256) else { return (whole, []) }
        let new = try PMTilesArchive(url), oldArchive = try PMTilesArchive(old)
        let riding = UInt64(riders.reduce(Int64(0)) { $0 + $1.bytes })
        let layout = try PMTilesLayout(new: new, old: oldArchive, uploadedBefore: riding, minimumFresh: UInt64(minimumPartBytes))
        let share = Double(layout.deadBytes) / Double(max(1, layout.tileDataLength))
        guard layout.copyLength > 0, share <= Self.maxDeadShare else {
            logger.debug("PMTiles published whole: \(layout.copyLength) bytes could be copied, \(String(format: "%.0f%%", share * 100)) dead")
            return (whole, [])
        }
        let composed = scratch.composedPMTiles()
        let (headLength, ridersAt) = try write(layout, new: new, old: oldArchive, riders: riders, to: composed)
        let sha256 = try SHA256.hex(fileAt: composed)
        let bytes = headLength + Int64(layout.tileDataLength)
        planned = (composed, sha256)
        let copyFrom = Int64(oldArchive.header.tileDataOffset + layout.copyStart)
        var parts = Self.uploadParts(length: headLength + Int64(layout.freshLength), minimum: minimumPartBytes)
        parts.append(.copy(key: target.key(previous.key), range: copyFrom...(copyFrom + Int64(layout.copyLength) - 1)))
        let uploaded = Format.bytes(Int(headLength + Int64(layout.freshLength))), copied = Format.bytes(Int(layout.copyLength))
        let words = "PMTiles composed: \(uploaded) uploaded (\(riders.count) other objects riding in it, \(Format.bytes(Int(riding)))), "
            + "\(copied) copied from the previous object, \(String(format: "%.1f%%", share * 100)) dead"
        logger.debug("\(words)")
        let key = "objects/\(sha256).pmtiles"
        var at = ridersAt
        let carried = riders.map { rider -> PlannedObject in
            defer { at += rider.bytes }
            return PlannedObject(key: rider.key, bytes: rider.bytes, sha256: rider.sha256, contentType: rider.contentType,
                                 source: .assembled(composed, parts: [.copy(key: target.key(key), range: at...(at + rider.bytes - 1))]))
        }
        return (PlannedObject(key: key, bytes: bytes, sha256: sha256, contentType: ObjectKinds.contentType(file.path),
                              source: .assembled(composed, parts: parts)), carried)
    }

    /// Keeps the object `pointer` names as the base of the next publish (when it is the one planned).
    func keep(_ pointer: PublishedPointer) {
        guard let planned, let named = pointer.files.first(where: { $0.name == BundleFileName.pmtiles }), named.sha256 == planned.sha256 else { return }
        let kept = scratch.pmtilesDirectory.appendingPathComponent("\(planned.sha256).pmtiles")
        if !FileManager.default.fileExists(atPath: kept.path) {
            do {
                if planned.url == scratch.composedPMTiles() {
                    try FileManager.default.moveItem(at: planned.url, to: kept)
                } else {
                    try FileCopy.copy(planned.url, to: kept)
                }
            } catch {
                logger.warning("cannot keep \(kept.path) for the next publish (it will upload the PMTiles whole): \(ErrorText.message(error))")
            }
        }
        scratch.prune(scratch.pmtilesDirectory, keeping: [kept.lastPathComponent])
    }

    /// The uploaded head of the object in parts of 8 MiB, the last one taking a remainder smaller than `minimum`.
    static func uploadParts(length: Int64, minimum: Int64) -> [PlannedObject.Part] {
        var parts: [PlannedObject.Part] = [], offset: Int64 = 0
        while offset < length {
            var size = min(Uploader.partBytes, length - offset)
            if length - offset - size < minimum { size = length - offset }
            parts.append(.upload(offset: offset, length: size))
            offset += size
        }
        return parts
    }

    /// Writes the object's local copy: header, root, metadata, leaves, the riders' bytes, then
    /// the tile data: new tiles, old tiles uploaded again, the copied tiles. Returns the length
    /// before the tile data and where the riders start.
    private func write(_ layout: PMTilesLayout, new: PMTilesArchive, old: PMTilesArchive, riders: [PlannedObject],
                       to url: URL) throws -> (Int64, Int64) {
        let (root, leaves) = try PMTilesDirectory.build(layout.entries, compress: Gzip.compress(array:))
        var header = new.header
        header.rootOffset = UInt64(PMTilesHeader.size)
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(new.metadata.count)
        header.leavesOffset = header.metadataOffset + header.metadataLength
        header.leavesLength = UInt64(leaves.count)
        let ridersAt = header.leavesOffset + header.leavesLength
        header.tileDataOffset = ridersAt + UInt64(riders.reduce(Int64(0)) { $0 + $1.bytes })
        header.tileDataLength = layout.tileDataLength
        header.tileEntries = UInt64(layout.entries.count)
        header.clustered = false
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw QuakeBakeError("cannot create \(url.path)") }
        let out = try FileHandle(forWritingTo: url)
        defer { try? out.close() }
        try out.write(contentsOf: Data(header.bytes + root) + new.metadata + Data(leaves))
        for rider in riders {
            guard case .file(let source) = rider.source else { continue }
            let input = open(source.path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { throw QuakeBakeError("cannot read \(source.path): \(String(cString: strerror(errno)))") }
            defer { close(input) }
            try FileCopy.append(Int(rider.bytes), from: input, at: 0, to: out.fileDescriptor, what: "\(source.path) into \(url.path)")
        }
        for piece in layout.fresh {
            try out.write(contentsOf: piece.fromNew ? new.tile(at: piece.offset, length: piece.length) : old.tile(at: piece.offset, length: piece.length))
        }
        var at = layout.copyStart
        let end = layout.copyStart + layout.copyLength
        while at < end {
            let count = UInt32(min(UInt64(1 << 20), end - at))
            try out.write(contentsOf: old.tile(at: at, length: count))
            at += UInt64(count)
        }
        try out.synchronize()
        return (Int64(header.tileDataOffset), Int64(ridersAt))
    }
}

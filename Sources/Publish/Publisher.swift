import Foundation
import Logging
import QuakeBundleFormat
import QuakeBundleKit
import QuakeCommon

/// `publish`: a bundle version to an S3-compatible store, behind a pointer written last.
///
/// ```
/// PREFIX/current.json                  the pointer (PublishedPointer): the only object ever overwritten
/// PREFIX/objects/<sha256>.<ext>        every file, named by its content: immutable
/// PREFIX/history/<time>-<sha256>.json  each pointer as it was published, for pruning
/// ```
/// In order: read the previous pointer; abort multipart uploads a killed publish left;
/// plan the new pointer (`PointerPlanner`); upload what the store lacks and check every
/// object (`Uploader`); write the history record, then the pointer; prune what no kept
/// version names (`Pruner`). A publish killed at any moment leaves the old pointer and
/// every object it names; the next one picks up (objects already there are not sent again).
public enum Publisher {
    /// Publishes the bundle in `bundle` (a version directory) as `options` say.
    public static func publish(bundle: URL, options: PublishOptions, workspace: Workspace,
                               progress: any ProgressSink = Progress.silent, logger: Logger) async throws -> PublishSummary {
        let started = Date()
        let target = try options.target()
        let manifest = try BundleManifest(directory: bundle)
        let credentials = try S3Credentials.resolve(file: options.credentialsFile, profile: options.profile)
        let client = S3Client(target: target, credentials: credentials, timeouts: options.timeouts, retry: options.retry, logger: logger)
        defer { client.close() }
        let scratch = try PublishScratch(workspace: workspace, target: target)

        let previous = try await readPointer(client, target: target)
        for upload in try await client.listMultipartUploads(prefix: target.key("objects/")) {
            logger.debug("aborting an unfinished upload of \(upload.key) (a publish that did not end)")
            try await client.abortMultipartUpload(upload.key, uploadID: upload.uploadID)
        }
        let composer = PMTilesComposer(client: client, target: target, scratch: scratch, previous: previous,
                                       minimumPartBytes: options.minimumPartBytes, logger: logger)
        let planner = PointerPlanner(manifest: manifest, previous: previous, scratch: scratch, options: options,
                                     storeHas: { try await client.head(target.key($0)) != nil },
                                     pmtiles: { try await composer.plan($0, riders: $1, bundle: manifest) })
        let plan = try await planner.plan()
        let pointerBytes = plan.objects.reduce(Int64(0)) { $0 + $1.bytes }
        var summary = PublishSummary(target: target.description, version: manifest.version, changed: plan.pointer != previous,
                                     base: plan.pointer.files.first { $0.name == BundleFileName.appDatabase }?.bundleVersion ?? manifest.version,
                                     deltaEntries: plan.pointer.deltas.count, pointerBytes: pointerBytes, uploadedObjects: 0, uploadedBytes: 0,
                                     copiedBytes: 0, skippedObjects: 0, skippedBytes: 0, deletedObjects: 0, seconds: 0)

        let tally = UploadTally(progress: progress, total: plan.objects.filter { if case .store = $0.source { false } else { true } }
            .reduce(Int64(0)) { $0 + $1.bytes })
        let uploader = Uploader(client: client, target: target, tally: tally, logger: logger)
        for object in plan.objects { try await uploader.ensure(object) }
        progress.finish()
        (summary.uploadedObjects, summary.uploadedBytes, summary.copiedBytes) = (tally.uploadedObjects, tally.uploadedBytes, tally.copiedBytes)
        (summary.skippedObjects, summary.skippedBytes) = (tally.skippedObjects, tally.skippedBytes)

        if summary.changed {
            try await writePointer(plan.pointer, client: client, target: target, at: started)
            let written = "wrote \(target.key(PublishedPointer.key)): version \(manifest.version), \(plan.pointer.files.count) files, "
                + "\(plan.pointer.deltas.count) delta entries"
            logger.debug("\(written)")
            do {
                summary.deletedObjects = try await Pruner(client: client, target: target, keep: options.keep, logger: logger).prune(current: plan.pointer)
            } catch let error as CancellationError {
                throw error
            } catch {
                // The version is published; what could not be pruned is pruned by a later publish.
                logger.warning("publish: version \(manifest.version) is published, but pruning failed: \(ErrorText.message(error))")
            }
        }
        composer.keep(plan.pointer)
        scratch.prune(scratch.travelDirectory, keeping: Set(plan.objects.compactMap { object in
            if case .file(let url) = object.source, url.deletingLastPathComponent() == scratch.travelDirectory { url.lastPathComponent } else { nil }
        }))
        summary.seconds = Date().timeIntervalSince(started)
        logger.info("\(summary.line)")
        return summary
    }

    /// The biggest pointer read (one with every entry a chain allows is some 100 KB).
    static let maximumPointerBytes = 16 << 20

    /// The pointer under the prefix, `nil` when there is none; refuses one this tool cannot read.
    static func readPointer(_ client: S3Client, target: S3Target) async throws -> PublishedPointer? {
        guard let data = try await client.get(target.key(PublishedPointer.key), limit: maximumPointerBytes) else { return nil }
        guard let pointer = try? JSONDecoder().decode(PublishedPointer.self, from: data), pointer.format == PublishedPointer.currentFormat else {
            throw QuakeBakeError("\(target)/\(PublishedPointer.key) is not a pointer of format \(PublishedPointer.currentFormat) "
                                 + "(another tool's, or a newer quake-bake's): not overwritten; publish under another prefix")
        }
        return pointer
    }

    /// The pointer's bytes as written: JSON, keys sorted, so the same pointer is the same bytes.
    static func encode(_ pointer: PublishedPointer) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(pointer) + Data("\n".utf8)
    }

    /// Writes the history record of `pointer`, then the pointer itself.
    private static func writePointer(_ pointer: PublishedPointer, client: S3Client, target: S3Target, at date: Date) async throws {
        let data = try encode(pointer)
        let digests = FileDigests.of(data)
        let record = "\(Pruner.historyFolder)\(Pruner.stamp(date))-\(digests.sha256Hex).json"
        _ = try await client.put(target.key(record), body: .bytes(data), digests: digests,
                                 headers: ObjectHeaders(contentType: "application/json", cacheControl: ObjectKinds.immutable))
        _ = try await client.put(target.key(PublishedPointer.key), body: .bytes(data), digests: digests,
                                 headers: ObjectHeaders(contentType: "application/json", cacheControl: ObjectKinds.pointer))
        guard let stored = try await client.head(target.key(PublishedPointer.key)), stored.size == Int64(data.count) else {
            throw S3Failure.unexpected("\(target.key(PublishedPointer.key)) is not the \(data.count) bytes just written")
        }
    }
}

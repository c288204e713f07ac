import Foundation
import Logging
import QuakeCommon
import QuakeHTTP

/// Puts planned objects in the store when they are not there yet, and checks each one
/// after: a single PUT up to `singlePutBytes`, a multipart upload in parts of `partBytes`
/// (two in flight) above, and assembled objects part by part (uploaded regions and copies).
/// Every body goes with its sha256 and MD5, which the store checks; the object is then read
/// back with a HEAD (its size, and its sha256 where the store keeps one).
final class Uploader: Sendable {
    let client: S3Client
    let target: S3Target
    let logger: Logger
    private let tally: UploadTally

    /// Files up to this size go in one PUT.
    static let singlePutBytes: Int64 = 16 << 20
    /// The part size of a multipart upload (8 MiB, within S3's 10,000 parts up to 80 GB).
    static let partBytes: Int64 = 8 << 20

    init(client: S3Client, target: S3Target, tally: UploadTally, logger: Logger) {
        self.client = client
        self.target = target
        self.tally = tally
        self.logger = logger
    }

    /// Makes sure `object` is in the store with its size and sha256.
    func ensure(_ object: PlannedObject) async throws {
        let key = target.key(object.key)
        if let existing = try await client.head(key), Self.matches(existing, object) {
            logger.debug("skipped \(object.key) (\(Format.bytes(Int(object.bytes)))): already in the store")
            tally.skipped(object.bytes)
            return
        }
        switch object.source {
        case .store:
            throw S3Failure.unexpected("\(key), which the previous pointer names, is missing or not \(object.bytes) bytes")
        case .file(let url):
            logger.debug("uploading \(object.key) (\(Format.bytes(Int(object.bytes)))): not in the store")
            if object.bytes <= Self.singlePutBytes {
                let digests = try FileDigests.of(url, length: object.bytes)
                guard digests.sha256Hex == object.sha256 else { throw changedUnderfoot(url) }
                _ = try await client.put(key, body: .file(url, offset: 0, length: object.bytes), digests: digests,
                                         headers: headers(object), progress: tally.progress(for: object.key))
                tally.uploaded(object.bytes)
            } else {
                try await multipart(object, file: url, parts: stride(from: Int64(0), to: object.bytes, by: Int(Self.partBytes)).map {
                    .upload(offset: $0, length: min(Self.partBytes, object.bytes - $0))
                })
            }
        case .assembled(let url, let parts):
            logger.debug("assembling \(object.key) (\(Format.bytes(Int(object.bytes)))) from \(parts.count) parts")
            try await multipart(object, file: url, parts: parts)
        }
        guard let stored = try await client.head(key), Self.matches(stored, object) else {
            throw S3Failure.unexpected("\(key) is not \(object.bytes) bytes with sha256 \(object.sha256) once uploaded")
        }
    }

    /// Whether the stored object is `object`: its size, and its sha256 where the store keeps a
    /// whole-object one (a multipart object's is a checksum of checksums, `…-N`).
    static func matches(_ stored: S3Object, _ object: PlannedObject) -> Bool {
        guard stored.size == object.bytes else { return false }
        guard let checksum = stored.checksumSHA256, !checksum.contains("-"), let data = Data(base64Encoded: checksum) else { return true }
        return data.map { String(format: "%02x", $0) }.joined() == object.sha256
    }

    private func headers(_ object: PlannedObject) -> ObjectHeaders {
        ObjectHeaders(contentType: object.contentType, cacheControl: ObjectKinds.immutable)
    }

    private func changedUnderfoot(_ url: URL) -> QuakeBakeError {
        QuakeBakeError("\(url.path) changed while it was published (its sha256 is not the one planned); publish again")
    }

    /// A multipart upload of `parts`, two in flight; aborted when a part fails.
    private func multipart(_ object: PlannedObject, file: URL, parts: [PlannedObject.Part]) async throws {
        let key = target.key(object.key)
        let uploadID = try await client.createMultipartUpload(key, headers: headers(object))
        do {
            var etags: [(Int, String)] = []
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var next = 0
                func start() {
                    let number = next + 1, part = parts[next]
                    next += 1
                    group.addTask { (number, try await self.upload(part, number: number, of: key, uploadID: uploadID, file: file, name: object.key)) }
                }
                while next < min(2, parts.count) { start() }
                while let done = try await group.next() {
                    etags.append(done)
                    if next < parts.count { start() }
                }
            }
            try await client.completeMultipartUpload(key, uploadID: uploadID, parts: etags.sorted { $0.0 < $1.0 })
        } catch {
            try? await client.abortMultipartUpload(key, uploadID: uploadID)
            throw error
        }
    }

    private func upload(_ part: PlannedObject.Part, number: Int, of key: String, uploadID: String, file: URL, name: String) async throws -> String {
        switch part {
        case .upload(let offset, let length):
            let digests = try FileDigests.of(file, offset: offset, length: length)
            let etag = try await client.uploadPart(key, uploadID: uploadID, number: number, body: .file(file, offset: offset, length: length),
                                                   digests: digests, progress: tally.progress(for: name))
            tally.uploaded(length)
            return etag
        case .copy(let source, let range):
            let etag = try await client.uploadPartCopy(key, uploadID: uploadID, number: number, source: source, range: range)
            tally.copied(part.length)
            return etag
        }
    }
}

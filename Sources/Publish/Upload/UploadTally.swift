import Foundation
import QuakeCommon

/// Bytes uploaded, copied and skipped so far, shown as the publish's progress.
final class UploadTally: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: any ProgressSink
    private let total: Int64
    private(set) var uploadedBytes: Int64 = 0
    private(set) var uploadedObjects = 0
    private(set) var copiedBytes: Int64 = 0
    private(set) var skippedBytes: Int64 = 0
    private(set) var skippedObjects = 0
    /// Bytes of requests in flight, by object name.
    private var inFlight: [String: Int64] = [:]

    /// `total`: the bytes the pointer names that may have to be uploaded.
    init(progress: any ProgressSink, total: Int64) {
        self.progress = progress
        self.total = total
    }

    func uploaded(_ bytes: Int64) { lock.withLock { uploadedBytes += bytes; uploadedObjects += 1 }; report("") }
    func copied(_ bytes: Int64) { lock.withLock { copiedBytes += bytes }; report("") }
    func skipped(_ bytes: Int64) { lock.withLock { skippedBytes += bytes; skippedObjects += 1 }; report("") }

    /// The body-progress callback of a request for `name`'s bytes.
    func progress(for name: String) -> @Sendable (Int64) -> Void {
        { [self] sent in
            lock.withLock { inFlight[name] = sent }
            report(name)
        }
    }

    private func report(_ name: String) {
        let done = lock.withLock { () -> Int64 in
            if name.isEmpty { inFlight = [:] }
            return uploadedBytes + copiedBytes + skippedBytes + inFlight.values.reduce(0, +)
        }
        progress.update(ProgressSnapshot(stage: "publish", done: Int(min(done, total) >> 20), total: Int(total >> 20), unit: "MB", detail: name))
    }
}

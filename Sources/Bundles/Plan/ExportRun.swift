import Foundation
import Logging
import QuakeCommon

/// One export underway: what it was asked, the store and output directory as they were when it
/// began, its stopwatch and scratch, and the products of its stages so far.
final class ExportRun: @unchecked Sendable {
    let store: URL
    let out: URL
    let options: ExportOptions
    let progress: any ProgressSink
    let logger: Logger
    let started: Date
    /// Times the stages on the thread that runs the plan (stages beside do not use it).
    var stopwatch: Stopwatch
    let reader: StoreReader
    let highWaterMark: Int64
    let publisher: BundlePublisher
    /// The version `current` points at (built upon or not, the bundle may be the same as it).
    let current: URL?
    /// Where the event table's columns go (see `SpillFile`); `nil` keeps them in memory.
    let spill: SpillFile?
    /// The key of every row of the store (`StoreReader.rowKeys()`), scanned from the start,
    /// beside the reading of the event cache.
    let scan: BackgroundWork<[(key: UInt64, rowid: Int64)]>
    let scratch: ExportScratch
    let products = ExportProducts()

    /// Opens the store and the output directory and starts the scan of the rows' keys.
    init(store: URL, out: URL, options: ExportOptions, scratch: ExportScratch, progress: any ProgressSink, logger: Logger) throws {
        started = Date()
        stopwatch = Stopwatch(logger: logger)
        self.store = store
        self.out = out
        self.options = options
        self.scratch = scratch
        self.progress = progress
        self.logger = logger
        progress.update(ProgressSnapshot(stage: "export", done: 0, total: nil, unit: "events", detail: "reading the store"))
        let reader = try StoreReader(path: store)
        self.reader = reader
        highWaterMark = try reader.highWaterMark()
        publisher = BundlePublisher(out: out)
        publisher.removeDebris()
        current = publisher.current()
        spill = Self.spillFile(out: out, logger: logger)
        scan = BackgroundWork("export.scan") { try reader.rowKeys() }
        scratch.waitsFor(scan)
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
}

/// What an export has going on the side until it publishes, cleaned up once when it ends
/// (published, unchanged or failed): background work is waited for (it may be writing into
/// the version directory), then the copies of the previous version's files, temporary files and
/// a version directory that was not published are removed.
final class ExportScratch: @unchecked Sendable {
    private let lock = NSLock()
    private var previousCopies: PreviousCopies?
    private var unpublished: URL?
    private var temporaryFiles: [URL] = []
    private var waits: [() -> Void] = []

    func waitsFor<T>(_ work: BackgroundWork<T>) {
        lock.withLock { waits.append { _ = try? work.wait() } }
    }

    /// Copies to remove at the end.
    func discards(_ copies: PreviousCopies) {
        lock.withLock { previousCopies = copies }
    }

    /// A version directory removed at the end unless published (`nil`: it was).
    func removes(unpublished directory: URL?) {
        lock.withLock { unpublished = directory }
    }

    /// Temporary files removed at the end (after they were renamed into place, nothing).
    func removes(temporary files: [URL]) {
        lock.withLock { temporaryFiles += files }
    }

    func cleanUp() {
        var index = 0
        while let wait = lock.withLock({ index < waits.count ? waits[index] : nil }) {
            wait()
            index += 1
        }
        previousCopies?.discard()
        for file in temporaryFiles { try? FileManager.default.removeItem(at: file) }
        if let unpublished { try? FileManager.default.removeItem(at: unpublished) }
    }
}

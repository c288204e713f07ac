import QuakeBundleFormat
import QuakeCatalog
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
    /// bundle, nothing is written and the summary says `changed == false`. A selection
    /// without events gives a complete bundle without features, and a warning.
    /// Unless `options.reuseTiles` is off, the export reads only the store rows that
    /// changed since the current bundle (see `EventCache`), encodes only the tiles whose
    /// content changed and patches copies of the current `quakes.sqlite` and `quakes.mbtiles`;
    /// the bundle is the same either way (those two files by content: see `AppDatabaseWriter`).
    /// The caller holds the workspace lock.
    public static func export(store: URL, out: URL, options: ExportOptions,
                              progress: any ProgressSink, logger: Logger) throws -> ExportSummary {
        try options.validate()
        try OutputDirectory.check(out)
        // The memory budget (300 MB at three million events) makes glibc hand freed memory back;
        // a small store's export can afford glibc's reuse instead: fewer page faults, 0.2 s less
        // in the cron case at 440,000 events (a store of 209 MB), for 30 MB more at its peak.
        if Self.fileSize(store) > Self.smallStoreBytes { FreedMemory.limitRetention() }
        defer { progress.finish() }
        let scratch = ExportScratch()
        defer { scratch.cleanUp() }
        let run = try ExportRun(store: store, out: out, options: options, scratch: scratch, progress: progress, logger: logger)
        let basis = ExportBasis.decide(options: options, run: run)
        return try ExportPlan.export(options: options, basis: basis).run(run)
    }

    /// Stores up to this size (some 500,000 events) are exported with glibc's own memory reuse.
    static let smallStoreBytes = 256 << 20

    /// The size of the file at `url` (as big as can be when it cannot be told).
    private static func fileSize(_ url: URL) -> Int {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int(status.st_size) : .max
    }

    /// A hash of the selection's content: every event's fingerprint, in no order (the sums of
    /// the fingerprints and of a mix of each: no sort of a million numbers).
    static func contentDigest(_ table: EventTable) -> String {
        var sum: UInt64 = 0, mixedSum: UInt64 = 0
        for fingerprint in table.fingerprint {
            sum &+= fingerprint
            mixedSum &+= SeededGenerator.mix(fingerprint)
        }
        var hasher = SipHasher()
        hasher.combine(UInt64(table.count))
        hasher.combine(sum)
        hasher.combine(mixedSum)
        return String(format: "%016llx", hasher.finalize())
    }

    /// The bundle version: the first 16 hex digits of the SHA-256 of everything the bundle is made
    /// from (the events, and the details of those that have them: `BundleDetails.digest`).
    static func bundleVersion(options: ExportOptions, highWaterMark: Int64, contentDigest: String, detailsDigest: String) -> String {
        let text = JSON.object([("format", .int(Manifest.formatVersion)), ("options", options.contentJSON),
                                ("high_water_mark", .int(highWaterMark)), ("content", .string(contentDigest)),
                                ("details", .string(detailsDigest))]).text
        return String(SHA256.hex(Data(text.utf8)).prefix(16))
    }
}

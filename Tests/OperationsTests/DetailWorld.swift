import Foundation
import GRDB
import Logging
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakeOperations
import QuakeStore
import TestSupport

/// The recorded quakes (data/detail) served by a stand-in as the real service serves them,
/// and a workspace that fetches and indexes them: the world of the details tests.
struct DetailWorld {
    let standIn: StandInProcess
    let directory: TemporaryDirectory
    var workspace: Workspace { Workspace(root: directory.url) }

    /// The recorded quakes: every one significant (sig ≥ 600).
    static let ids = ["ci3144585", "nc72852151", "nn00570710", "official20110311054624120_30", "us1000778i", "us10007uph",
                      "us10008e3k", "us2000ar20", "us2000h8ty", "usp0006dzc", "usp0006kdp"]

    init(faults: [String] = []) throws {
        standIn = try StandInProcess(catalogs: TestData.recordedDetails, faults: faults, details: TestData.details)
        directory = TemporaryDirectory("details")
    }

    static let log = RecordedLog(label: "details-test")

    func options(perRun: Int = 200, maxContentBytes: Int? = nil) -> FetchOptions {
        var options = FetchOptions()
        options.service = standIn.baseURL
        (options.retryBaseDelay, options.retryMaxDelay, options.maxAttempts, options.giveUpAfter) = (0.01, 0.05, 3, 3600)
        options.detailsPerRun = perRun
        if let maxContentBytes { options.maxContentBytes = maxContentBytes }
        return options
    }

    /// Fetches every recorded quake's time (1990–2021) with `options`, then indexes the archive.
    @discardableResult
    func bake(_ options: FetchOptions? = nil) async throws -> (FetchSummary, IndexSummary) {
        var selection = FetchSelection()
        (selection.start, selection.end) = (ISOTime.parse("1990-01-01"), ISOTime.parse("2021-01-01"))
        let fetched = try await Fetcher.run(selection: selection, options: options ?? self.options(), workspace: workspace, logger: Self.log.logger)
        let indexed = try Indexer.index(try ArchiveSources.all(in: workspace), details: try ArchiveSources.details(in: workspace),
                                        store: workspace.storePath, logger: Self.log.logger)
        return (fetched, indexed)
    }

    /// The store's `details` rows: id → (the row's columns, the summary decoded).
    func stored() throws -> [String: (row: Row, summary: [String: Any])] {
        let queue = try DatabaseQueue(path: workspace.storePath.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String: (Row, [String: Any])] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM details") {
                let summary = try JSONSerialization.jsonObject(with: Data((row["summary"] as String).utf8)) as? [String: Any] ?? [:]
                rows[row["id"]] = (row, summary)
            }
            return rows
        }
    }

    /// The `left_out` parts of a summary, as "part: reason".
    static func leftOut(_ summary: [String: Any]) -> [String] {
        (summary["left_out"] as? [[String: Any]] ?? []).map { "\($0["part"] as? String ?? ""): \($0["reason"] as? String ?? "")" }
    }
}

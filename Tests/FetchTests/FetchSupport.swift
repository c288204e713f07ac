import Foundation
import Logging
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import TestSupport

/// Shared pieces of the fetch suites.
enum FetchSupport {
    /// Options for tests: the stand-in's URL, fast retries, short timeouts.
    static func options(_ standIn: StandInProcess, readTimeout: TimeInterval = 10) -> FetchOptions {
        var options = FetchOptions()
        options.service = standIn.baseURL
        options.retryBaseDelay = 0.01
        options.retryMaxDelay = 0.05
        options.maxAttempts = 4
        options.connectTimeout = 10
        options.readTimeout = readTimeout
        // However slow a loaded test machine is, a test's retries are counted, not timed.
        options.giveUpAfter = 3600
        // The pages are what these suites check; DetailFetchTests and DetailContentTests ask for details.
        options.details = .none
        return options
    }

    static func selection(_ start: String, _ end: String) -> FetchSelection {
        var selection = FetchSelection()
        selection.start = ISOTime.parse(start)
        selection.end = ISOTime.parse(end)
        return selection
    }

    /// Where the fetch suites log: kept, not printed (the faults they inject cause warnings on
    /// purpose), for the tests to assert on.
    static let log = RecordedLog(label: "fetch-test")
    static var logger: Logger { log.logger }

    /// Every page in the archive, read back.
    static func archivedPages(_ workspace: Workspace) throws -> [(page: ArchivedPage, events: [QuakeEvent])] {
        try Archive.pages(in: workspace).map { page in
            let read = CatalogFile.read(page.file)
            if let problem = read.problem { throw ArchiveProblem(description: problem) }
            return (page, read.events)
        }
    }

    struct ArchiveProblem: Error, CustomStringConvertible { let description: String }

    /// The ids in the archive.
    static func archivedIDs(_ workspace: Workspace) throws -> Set<String> {
        Set(try archivedPages(workspace).flatMap { $0.events.map(\.id) })
    }

    /// The ids the stand-in serves for `query` (FDSN parameters), uncapped.
    static func servedIDs(_ standIn: StandInProcess, _ query: String) async throws -> Set<String> {
        Set(try await standIn.catalog(query).map(\.id))
    }
}

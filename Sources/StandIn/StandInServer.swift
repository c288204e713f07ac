import FlyingFox
import FlyingSocks
import Foundation
import Logging
import QuakeCatalog
import QuakeCommon

/// The USGS FDSN event service stand-in: loads the catalog, then serves it over HTTP on
/// 127.0.0.1 with the admin interface beside it.
public final class StandInServer: Sendable {
    private let http: HTTPServer
    private let logger: Logger
    /// One line saying what is served, for the log.
    public let summary: String

    /// Handler timeout of the HTTP server: far above any stall fault (at most 3000 s).
    static let handlerTimeout: TimeInterval = 3_600

    /// Loads the catalogs (and the replay's start) and prepares the server.
    /// Throws a `QuakeBakeError` naming the input when a file cannot be used.
    public init(_ configuration: StandInConfiguration, logger: Logger = Logger(label: "usgs-stand-in")) throws {
        guard configuration.cap >= 1 else { throw QuakeBakeError("--cap must be at least 1", exitStatus: .usage) }
        var faults = FaultBook()
        do { try faults.add(configuration.faults) } catch { throw QuakeBakeError(error.description, exitStatus: .usage) }

        var catalog = ServedCatalog()
        for url in configuration.catalogs {
            let page = CatalogFile.read(url)
            if let problem = page.problem { throw QuakeBakeError("cannot load catalog: \(problem)") }
            if let first = page.rejects.first {
                logger.warning("catalog \(url.path): \(page.rejects.count) item(s) rejected; first at \(first.position): \(first.reason)")
            }
            for event in page.events { catalog.merge(event) }
        }
        var clock = ServiceClock(fixed: configuration.now)
        var replay: Replay?
        var summary = "serving \(catalog.count) events from \(Format.count(configuration.catalogs.count, "file")), cap \(configuration.cap)"
        if let options = configuration.replay {
            let history = try ReplayHistory(url: options.file)
            let simulation = options.renameRate > 0 || options.deleteRate > 0
                ? Replay.Simulation(seed: options.seed, renameRate: options.renameRate, deleteRate: options.deleteRate) : nil
            let started = Replay(history: history, simulation: simulation)
            _ = try started.advance(to: options.start ?? history.firstSeen ?? clock.now, catalog: &catalog)
            clock.fixed = started.asOf
            replay = started
            summary += "; replaying \(options.file.path) as of \(ISOTime.format(milliseconds: started.asOf)) (\(catalog.count) events)"
        }
        let details = try configuration.details.map(RecordedDetails.load) ?? RecordedDetails()
        if let directory = configuration.details { summary += "; \(Format.count(details.count, "recorded detail answer")) from \(directory.path)" }
        self.summary = summary
        self.logger = logger
        let state = StandInState(catalog: catalog, clock: clock, cap: configuration.cap, faults: faults, replay: replay, details: details)
        let address: sockaddr_in
        do { address = try .inet(ip4: "127.0.0.1", port: configuration.port) } catch {
            throw QuakeBakeError("cannot use port \(configuration.port): \(error)", exitStatus: .usage)
        }
        http = HTTPServer(address: address, timeout: Self.handlerTimeout, logger: DisabledLogger.disabled,
                          handler: StandInHTTPHandler(state: state, logger: logger))
    }

    /// Serves until the task is cancelled or the server fails. Once listening, calls
    /// `onListening` with the FDSN base URL (`http://127.0.0.1:PORT/fdsnws/event/1/`).
    public func run(onListening: @Sendable (URL) -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.http.run() }
            try await http.waitUntilListening(timeout: 30)
            guard case .ip4(let ip, let port)? = await http.listeningAddress, let url = URL(string: "http://\(ip):\(port)\(ServiceInfo.basePath)") else {
                throw QuakeBakeError("the server did not report its address")
            }
            logger.info("\(summary)")
            onListening(url)
            try await group.next()
        }
    }
}

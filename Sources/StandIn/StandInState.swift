import Foundation
import QuakeCatalog

/// Everything the stand-in knows that can change while it runs: the served catalog,
/// the clock, the fault rules, the request log and the replay. One actor, so every
/// request and every admin change sees a consistent catalog.
actor StandInState {
    var catalog: ServedCatalog
    var clock: ServiceClock
    let cap: Int
    var faults = FaultBook()
    var log = RequestLog()
    var replay: Replay?
    /// The products of detail answers and the product files (see `RecordedDetails`).
    var details: RecordedDetails

    init(catalog: ServedCatalog, clock: ServiceClock, cap: Int, faults: FaultBook, replay: Replay?, details: RecordedDetails = RecordedDetails()) {
        self.catalog = catalog
        self.details = details
        self.clock = clock
        self.cap = cap
        self.faults = faults
        self.replay = replay
    }

    /// Starts a request to `endpoint` (an FDSN method, `detail` or `product`): the fault to
    /// inject, if any, and the service's "now".
    func begin(_ endpoint: String) -> (fault: FaultKind?, now: Int64) {
        (faults.decide(for: endpoint), clock.nowSeconds)
    }

    /// A product file (`/product/PATH`), or 404 as the service answers for a file it does not have.
    func productFile(_ path: String) -> ServiceAnswer {
        guard let data = details.file(at: path) else { return ServiceAnswer(status: 404, contentType: ServiceAnswer.plain, text: "Not Found\n") }
        let type = path.hasSuffix(".json") ? "application/json" : path.hasSuffix(".xml") ? "application/xml"
            : path.hasSuffix(".txt") ? "text/plain; charset=UTF-8" : "application/octet-stream"
        return ServiceAnswer(status: 200, contentType: type, body: data)
    }

    /// Adds a finished FDSN request to the log.
    func record(_ record: RequestRecord) {
        log.append(record)
    }

    /// The service's default `starttime`: 30 days before now.
    static let defaultWindow: Int64 = 30 * 86_400_000

    /// The events `filter` selects (and only the event known by `eventId`, when given), unsorted.
    func matching(_ filter: EventFilter, eventId: String? = nil) -> [ServedEvent] {
        if let eventId {
            guard let served = catalog.served(withAnyId: eventId), filter.matches(served.event) else { return [] }
            return [served]
        }
        return catalog.filter(filter.matches)
    }

    /// How many events `filter` selects (and only the event known by `eventId`, when given).
    func count(_ filter: EventFilter, eventId: String? = nil) -> Int {
        if let eventId { return matching(filter, eventId: eventId).count }
        return catalog.count(where: filter.matches)
    }

    /// The events of one page: `matches` in `order`, from `offset` (1-based), at most `limit`.
    static func page(_ matches: [ServedEvent], _ order: EventOrder, limit: Int?, offset: Int?) -> [QuakeEvent] {
        var sorted = order.sorted(matches)[...]
        if let limit { sorted = sorted.dropFirst((offset ?? 1) - 1).prefix(limit) }
        return sorted.map(\.event)
    }

    /// Parses an FDSN request against this service's cap and known sources.
    func parse(_ parameters: [(name: String, value: String)]) throws(ServiceError) -> FDSNRequest {
        try FDSNRequest.parse(parameters, cap: cap, sources: { catalog.sourceNames.sorted() })
    }
}

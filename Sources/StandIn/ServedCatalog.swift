import QuakeCatalog

/// The events the stand-in serves: one current version per event, found by any of its ids.
///
/// The store's rule (see `EventReconciler`): an event is the same quake as a served one
/// when one's preferred id is among the other's ids, and putting it removes those. A
/// secondary id two quakes share merges nothing: it is found under the one with the
/// newest `updated`.
///
/// Versions are kept boxed (`ServedEvent`): a dictionary of references grows, scans and
/// sorts without copying the large `QuakeEvent` values, which keeps a 440,000-event
/// replay catalog compact and its queries quick.
struct ServedCatalog: Sendable {
    /// Current versions keyed by preferred id.
    private var events: [String: ServedEvent] = [:]
    /// Every known id (preferred or not) → the preferred id of its event.
    private var owners: [String: String] = [:]
    /// Every network or source code ever served: what `catalog` and `contributor` accept.
    private(set) var sourceNames: Set<String> = []

    /// How many events are served, deleted ones included.
    var count: Int { events.count }

    /// How many served events are marked deleted.
    var deletedCount: Int { count { $0.isDeleted } }

    /// The served events `isIncluded` accepts, in no particular order.
    func filter(_ isIncluded: (QuakeEvent) -> Bool) -> [ServedEvent] {
        events.values.filter { isIncluded($0.event) }
    }

    /// How many served events `isIncluded` accepts.
    func count(where isIncluded: (QuakeEvent) -> Bool) -> Int {
        events.values.reduce(0) { $0 + (isIncluded($1.event) ? 1 : 0) }
    }

    /// Calls `body` with every served event, in no particular order.
    func forEach(_ body: (QuakeEvent) -> Void) {
        for box in events.values { body(box.event) }
    }

    /// The event known by `id` (its preferred id or any of its `ids`).
    func event(withAnyId id: String) -> QuakeEvent? {
        served(withAnyId: id)?.event
    }

    /// The boxed event known by `id`.
    func served(withAnyId id: String) -> ServedEvent? {
        owners[id].flatMap { events[$0] }
    }

    /// The preferred id of the event known by `id`.
    func preferredId(for id: String) -> String? { owners[id] }

    /// Newest `updated` wins: the event replaces the served versions of the same quake only
    /// when it is strictly newer than all of them (on a tie the served one stays).
    mutating func merge(_ event: QuakeEvent) {
        if rivals(of: event).contains(where: { $0.updated >= event.updated }) { return }
        put(event)
    }

    /// Serves `event` as given, removing the served versions of the same quake.
    mutating func put(_ event: QuakeEvent) {
        for rival in rivals(of: event) { remove(preferredId: rival.id) }
        events[event.id] = ServedEvent(event)
        for id in event.allIds {
            // A secondary id another quake claims with a newer (or equal) version stays with it.
            if let holder = owners[id].flatMap({ events[$0]?.event }), holder.id != event.id, holder.updated >= event.updated { continue }
            owners[id] = event.id
        }
        sourceNames.formUnion(event.sources)
        if let net = event.net { sourceNames.insert(net) }
    }

    /// Stops serving the event whose preferred id is `preferredId`.
    private mutating func remove(preferredId: String) {
        guard let event = events.removeValue(forKey: preferredId)?.event else { return }
        for id in event.allIds where owners[id] == preferredId { owners[id] = nil }
    }

    /// Served versions of the same quake as `event` (one's preferred id among the other's
    /// ids), each once.
    private func rivals(of event: QuakeEvent) -> [QuakeEvent] {
        var seen: Set<String> = []
        let ids = event.allIds
        return ids.compactMap { owners[$0] }.filter { seen.insert($0).inserted }.compactMap { events[$0]?.event }
            .filter { ids.contains($0.id) || $0.allIds.contains(event.id) }
    }
}

/// One served version, boxed (see `ServedCatalog`).
final class ServedEvent: Sendable {
    let event: QuakeEvent
    init(_ event: QuakeEvent) { self.event = event }
}

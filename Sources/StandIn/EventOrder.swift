import QuakeCatalog

/// `orderby`: the four orders of the service. Ties, which the real service returns in
/// no fixed order, are broken here by time and then id, so paging is deterministic.
/// Unknown magnitudes and times sort as the smallest values.
enum EventOrder: String, CaseIterable, Sendable {
    case time
    case timeAscending = "time-asc"
    case magnitude
    case magnitudeAscending = "magnitude-asc"

    /// Sorts `events` in this order.
    func sorted(_ events: [ServedEvent]) -> [ServedEvent] {
        events.sorted { areInIncreasingOrder($0.event, $1.event) }
    }

    func areInIncreasingOrder(_ a: borrowing QuakeEvent, _ b: borrowing QuakeEvent) -> Bool {
        let ta = a.time ?? .min, tb = b.time ?? .min
        let ma = a.mag ?? -.infinity, mb = b.mag ?? -.infinity
        switch self {
        case .time:
            if ta != tb { return ta > tb }
        case .timeAscending:
            if ta != tb { return ta < tb }
        case .magnitude:
            if ma != mb { return ma > mb }
            if ta != tb { return ta > tb }
        case .magnitudeAscending:
            if ma != mb { return ma < mb }
            if ta != tb { return ta < tb }
        }
        return a.id < b.id
    }
}

import QuakeCatalog

/// The store's rules written the slow, obvious way, as an independent model to
/// compare the store against: quakes are groups of ids joined by any shared id;
/// each group shows its newest version (strictly newer wins; deletions hide it).
struct ReferenceCatalog {
    private var groupOf: [String: Int] = [:]
    private var members: [Int: Set<String>] = [:]
    private var standing: [Int: QuakeEvent] = [:]
    private var nextGroup = 0

    mutating func apply(_ event: QuakeEvent) {
        let groups = Set(event.allIds.compactMap { groupOf[$0] }).sorted()
        let group = groups.first ?? { nextGroup += 1; return nextGroup }()
        var incumbents: [QuakeEvent] = []
        for other in groups {
            if let version = standing.removeValue(forKey: other) { incumbents.append(version) }
            if other != group {
                for id in members.removeValue(forKey: other) ?? [] { groupOf[id] = group; members[group, default: []].insert(id) }
            }
        }
        for id in event.allIds { groupOf[id] = group; members[group, default: []].insert(id) }
        // The incumbent that stands: newest, then the one named like the new version, then live, then smaller id.
        let best = incumbents.max { a, b in
            if a.updated != b.updated { return a.updated < b.updated }
            if (a.id == event.id) != (b.id == event.id) { return b.id == event.id }
            if a.isDeleted != b.isDeleted { return !b.isDeleted }
            return a.id > b.id
        }
        if let best, best.updated >= event.updated { standing[group] = best } else { standing[group] = event }
    }

    mutating func apply(_ events: [QuakeEvent]) {
        for event in events { apply(event) }
    }

    /// The live events by preferred id.
    var events: [String: QuakeEvent] {
        var live: [String: QuakeEvent] = [:]
        for event in standing.values where !event.isDeleted { live[event.id] = event }
        return live
    }
}

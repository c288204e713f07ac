import QuakeCatalog

/// The store's rules written the slow, obvious way, as an independent model to compare
/// the store against (dictionaries scanned whole, no directory, no SQL):
/// - every id ever seen is held by one quake (`holder`);
/// - a version meets the quakes holding its ids, and the one named like it; it is the same
///   quake as those whose preferred id it lists or which list its preferred id;
/// - the newest version of the same quake stands (strictly newer wins; ties as the store
///   breaks them); the quakes it joins hand all their ids to the one that stands;
/// - a secondary id shared with another quake merges nothing: it goes to the version only
///   when that version is newer than the quake holding it (and only if the version stands).
struct ReferenceCatalog {
    /// The standing version of every quake, live or deleted, by preferred id.
    private var standing: [String: QuakeEvent] = [:]
    /// Every id ever seen → the preferred id of the quake holding it.
    private var holder: [String: String] = [:]

    mutating func apply(_ event: QuakeEvent) {
        let claimed = event.allIds
        var met: [String] = []
        if standing[event.id] != nil { met.append(event.id) }
        for id in claimed { if let h = holder[id], !met.contains(h) { met.append(h) } }
        let same = met.filter { q in claimed.contains(q) || standing[q]!.allIds.contains(event.id) }
        let shared = claimed.filter { id in id != event.id && holder[id].map { !same.contains($0) } == true }

        let best = same.map { standing[$0]! }.max { a, b in
            if a.updated != b.updated { return a.updated < b.updated }
            if (a.id == event.id) != (b.id == event.id) { return b.id == event.id }
            if a.isDeleted != b.isDeleted { return !b.isDeleted }
            return a.id > b.id
        }
        let versionStands = best.map { $0.updated < event.updated } ?? true
        let winner = versionStands ? event : best!
        for q in same where q != winner.id {
            standing[q] = nil
            for (id, h) in holder where h == q { holder[id] = winner.id }
        }
        standing[winner.id] = winner
        for id in claimed {
            if shared.contains(id) {
                // Only a standing version that is newer than the holder takes a shared id.
                let h = holder[id]!
                if versionStands && standing[h]!.updated < event.updated { holder[id] = event.id }
            } else {
                holder[id] = winner.id
            }
        }
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

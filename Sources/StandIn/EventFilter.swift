import QuakeCatalog

/// Which events a `query` or `count` selects: every FDSN criterion, already validated.
/// Unset criteria select everything; bounds are inclusive.
struct EventFilter: Sendable {
    /// Origin-time bounds, ms since 1970 UTC.
    var startTime: Int64?
    var endTime: Int64?
    /// `updated >= updatedAfter`, ms since 1970 UTC.
    var updatedAfter: Int64?
    var minLatitude: Double?
    var maxLatitude: Double?
    /// Longitude bounds as sent, in [-360, 360]; a window may cross the antimeridian.
    var minLongitude: Double?
    var maxLongitude: Double?
    /// Circle (and ring) around a point, radii in degrees of arc.
    var circle: Circle?
    var minDepth: Double?
    var maxDepth: Double?
    var minMagnitude: Double?
    var maxMagnitude: Double?
    var magnitudeType: String?
    /// Event types (lower-cased); any of them matches.
    var eventTypes: [String]?
    var reviewStatus: String?
    /// Network/source codes: `catalog` and `contributor` both match the event's sources.
    var catalog: String?
    var contributor: String?
    var alertLevel: String?
    var minFelt: Int?
    var minCDI: Double?
    var maxCDI: Double?
    var minMMI: Double?
    var maxMMI: Double?
    var minGap: Double?
    var maxGap: Double?
    var minSig: Int?
    var maxSig: Int?
    var productType: String?
    var productCode: String?
    var deleted: DeletedEvents = .exclude

    /// A circle or ring: events whose great-circle distance from the centre is within the radii.
    struct Circle: Sendable {
        var latitude: Double
        var longitude: Double
        var minRadius: Double
        var maxRadius: Double
    }

    /// `includedeleted`: false (default), true, or only.
    enum DeletedEvents: Sendable {
        case exclude, include, only
    }

    /// True when `event` meets every criterion.
    func matches(_ e: QuakeEvent) -> Bool {
        switch deleted {
        case .exclude: if e.isDeleted { return false }
        case .only: if !e.isDeleted { return false }
        case .include: break
        }
        if startTime != nil || endTime != nil {
            guard let time = e.time else { return false }
            if let startTime, time < startTime { return false }
            if let endTime, time > endTime { return false }
        }
        if let updatedAfter, e.updated < updatedAfter { return false }
        if !matchesLocation(e) { return false }
        if !within(e.depthKm, minDepth, maxDepth) || !within(e.mag, minMagnitude, maxMagnitude) { return false }
        if let magnitudeType, e.magType?.lowercased() != magnitudeType.lowercased() { return false }
        if let eventTypes, !eventTypes.contains((e.eventType ?? "").lowercased()) { return false }
        if let reviewStatus, e.status?.lowercased() != reviewStatus { return false }
        if let catalog, !e.sources.contains(catalog) && e.net != catalog { return false }
        if let contributor, !e.sources.contains(contributor) && e.net != contributor { return false }
        if let alertLevel, e.alert != alertLevel { return false }
        if let minFelt, (e.felt ?? Int.min) < minFelt { return false }
        if !within(e.cdi, minCDI, maxCDI) || !within(e.mmi, minMMI, maxMMI) || !within(e.gap, minGap, maxGap) { return false }
        if !within(e.sig.map(Double.init), minSig.map(Double.init), maxSig.map(Double.init)) { return false }
        if let productType, !e.types.contains(productType) { return false }
        if let productCode, !e.allIds.contains(productCode) { return false }
        return true
    }

    private func matchesLocation(_ e: QuakeEvent) -> Bool {
        let hasRectangle = minLatitude != nil || maxLatitude != nil || minLongitude != nil || maxLongitude != nil
        guard hasRectangle || circle != nil else { return true }
        guard let latitude = e.latitude, let longitude = e.longitude else { return false }
        if !within(latitude, minLatitude, maxLatitude) { return false }
        if !LongitudeWindow.contains(longitude, min: minLongitude, max: maxLongitude) { return false }
        if let circle {
            let distance = GreatCircle.degrees(fromLatitude: circle.latitude, longitude: circle.longitude,
                                               toLatitude: latitude, longitude: longitude)
            if distance < circle.minRadius || distance > circle.maxRadius { return false }
        }
        return true
    }

    /// Unknown values never meet a bound.
    private func within(_ value: Double?, _ low: Double?, _ high: Double?) -> Bool {
        if low == nil && high == nil { return true }
        guard let value else { return false }
        if let low, value < low { return false }
        if let high, value > high { return false }
        return true
    }
}

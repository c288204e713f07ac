/// The checks every event must pass, whatever format it came in.
///
/// A failed check is a reason in words; the reader turns it into a `Reject`.
enum EventRules {
    /// Longest text kept in any field; longer values reject the event (a 10 MB
    /// place name is damage, not data).
    static let maximumFieldLength = 65_536

    /// Checks a drafted event and normalises its longitude into [-180, 180].
    /// Returns the reason it cannot be stored, or `nil` when it is fine.
    static func check(_ event: inout QuakeEvent) -> String? {
        if event.id.isEmpty { return "missing id" }
        if !event.isDeleted {
            if event.time == nil { return "missing origin time" }
            if event.longitude == nil || event.latitude == nil { return "missing coordinates" }
        }
        for (name, value) in [("longitude", event.longitude), ("latitude", event.latitude), ("depth", event.depthKm),
                              ("mag", event.mag), ("cdi", event.cdi), ("mmi", event.mmi), ("dmin", event.dmin),
                              ("rms", event.rms), ("gap", event.gap), ("horizontalError", event.horizontalError),
                              ("depthError", event.depthError), ("magError", event.magError)] {
            if let value, !value.isFinite { return "\(name) is \(value) (not a finite number)" }
        }
        if let problem = PlausibleRanges.problem(with: event) { return problem }
        if let latitude = event.latitude, !(-90...90).contains(latitude) {
            return "latitude \(latitude) is outside -90…90"
        }
        if let longitude = event.longitude {
            guard (-360...360).contains(longitude) else { return "longitude \(longitude) is outside -360…360" }
            event.longitude = normalizedLongitude(longitude)
        }
        for (name, value) in [("id", event.id), ("place", event.place), ("title", event.title), ("url", event.url),
                              ("detail", event.detail), ("net", event.net), ("code", event.code), ("type", event.eventType),
                              ("magType", event.magType), ("status", event.status), ("alert", event.alert)] {
            if let value, value.utf8.count > maximumFieldLength {
                return "\(name) is \(value.utf8.count) bytes long (limit \(maximumFieldLength))"
            }
        }
        return nil
    }

    /// Wraps a longitude in [-360, 360] into [-180, 180]; ±180 are kept as written.
    static func normalizedLongitude(_ longitude: Double) -> Double {
        if (-180...180).contains(longitude) { return longitude }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }
}

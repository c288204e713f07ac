/// The checks every event must pass, whatever format it came in.
///
/// A failed check is a reason in words; the reader turns it into a `Reject`.
enum EventRules {
    /// Longest text kept in any field; longer values reject the event (a 10 MB
    /// place name is damage, not data).
    static let maximumFieldLength = 65_536

    /// Most entries kept in a list field (`ids`, `sources`, `types`): ComCat's events list at
    /// most a handful of ids and sources and about twenty product types. A list of thousands is
    /// damage, and every id of it would cost the store a lookup and a row.
    static let maximumListLength = 256

    /// Checks a drafted event and normalises its longitude into [-180, 180].
    /// Returns the reason it cannot be stored, or `nil` when it is fine.
    static func check(_ event: inout QuakeEvent) -> String? {
        if event.id.isEmpty { return "missing id" }
        if let problem = idProblem(event) { return problem }
        if !event.isDeleted {
            if event.time == nil { return "missing origin time" }
            if event.longitude == nil || event.latitude == nil { return "missing coordinates" }
        }
        if let problem = notFinite(event) { return problem }
        if let problem = PlausibleRanges.problem(with: event) { return problem }
        if let latitude = event.latitude, !(-90...90).contains(latitude) {
            return "latitude \(latitude) is outside -90…90"
        }
        if let longitude = event.longitude {
            guard (-360...360).contains(longitude) else { return "longitude \(longitude) is outside -360…360" }
            event.longitude = normalizedLongitude(longitude)
        }
        if let problem = tooLong(event) { return problem }
        return nil
    }

    /// Why the event's ids cannot be USGS ids, in words, or `nil`. An id holding a comma (the
    /// separator of `ids` lists: `"x,y"` would read as two ids of another event's `,x,y,`), or
    /// blank once trimmed, names no event: the event is rejected, whether the id is its own (the
    /// feature id, `properties.id`, `net` + `code`, the CSV `id`) or a member of its `ids` (a
    /// member cannot hold a comma, having been split on them, but can be blank, as in `,us1, ,`;
    /// a list with a blank member is damaged, and the event with it, rather than silently mended).
    private static func idProblem(_ event: QuakeEvent) -> String? {
        func problem(_ id: String) -> String? {
            if id.utf8.contains(UInt8(ascii: ",")) { return "\(quoted(id)) holds a comma, the separator of ids lists: not an event id" }
            if id.unicodeScalars.allSatisfy(\.properties.isWhitespace) { return "\(quoted(id)) is blank" }
            return nil
        }
        if let problem = problem(event.id) { return "id " + problem }
        for id in event.ids { if let problem = problem(id) { return "ids member " + problem } }
        return nil
    }

    /// `id` in quotes, cut to 64 characters, for reasons.
    private static func quoted(_ id: String) -> String {
        "\"" + (id.count > 64 ? id.prefix(64) + "…" : id) + "\""
    }

    /// The first number field that is not finite, in words. (Field by field, without a list per
    /// event: every event of a file comes through here.)
    private static func notFinite(_ event: QuakeEvent) -> String? {
        func check(_ name: String, _ value: Double?) -> String? {
            guard let value, !value.isFinite else { return nil }
            return "\(name) is \(value) (not a finite number)"
        }
        if let problem = check("longitude", event.longitude) ?? check("latitude", event.latitude) ?? check("depth", event.depthKm)
            ?? check("mag", event.mag) ?? check("cdi", event.cdi) ?? check("mmi", event.mmi) {
            return problem
        }
        return check("dmin", event.dmin) ?? check("rms", event.rms) ?? check("gap", event.gap)
            ?? check("horizontalError", event.horizontalError) ?? check("depthError", event.depthError) ?? check("magError", event.magError)
    }

    /// The first text field longer than `maximumFieldLength`, or list longer than
    /// `maximumListLength` entries or `maximumFieldLength` bytes, in words.
    private static func tooLong(_ event: QuakeEvent) -> String? {
        func check(_ name: String, _ value: String?) -> String? {
            guard let value, value.utf8.count > maximumFieldLength else { return nil }
            return "\(name) is \(value.utf8.count) bytes long (limit \(maximumFieldLength))"
        }
        if let problem = check("id", event.id) ?? check("place", event.place) ?? check("title", event.title) ?? check("url", event.url)
            ?? check("detail", event.detail) ?? check("net", event.net) {
            return problem
        }
        if let problem = check("code", event.code) ?? check("type", event.eventType) ?? check("magType", event.magType)
            ?? check("status", event.status) ?? check("alert", event.alert) {
            return problem
        }
        func checkList(_ name: String, _ list: [String]) -> String? {
            if list.count > maximumListLength { return "\(name) lists \(list.count) entries (limit \(maximumListLength))" }
            let bytes = list.reduce(0) { $0 + $1.utf8.count + 1 }
            return bytes > maximumFieldLength ? "\(name) is \(bytes) bytes long (limit \(maximumFieldLength))" : nil
        }
        return checkList("ids", event.ids) ?? checkList("sources", event.sources) ?? checkList("types", event.types)
    }

    /// Wraps a longitude in [-360, 360] into [-180, 180]; ±180 are kept as written.
    static func normalizedLongitude(_ longitude: Double) -> Double {
        if (-180...180).contains(longitude) { return longitude }
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }
}

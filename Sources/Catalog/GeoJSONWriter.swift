/// Writes events as the FDSN service writes GeoJSON: the same members, in the
/// same order, with the same types.
public enum GeoJSONWriter {
    /// One feature: `{"type":"Feature","properties":{…},"geometry":{…},"id":"…"}`.
    public static func feature(_ e: QuakeEvent) -> String {
        feature(e, products: nil)
    }

    /// The event's detail answer (`query?eventid=`): its feature without `detail`, with
    /// `products` (the text of a `properties.products` object) as the last property.
    public static func detail(_ e: QuakeEvent, products: String) -> String {
        feature(e, products: products)
    }

    private static func feature(_ e: QuakeEvent, products: String?) -> String {
        var p = "{\"mag\":\(JSONText.optional(e.mag)),\"place\":\(JSONText.optional(e.place))"
        p += ",\"time\":\(JSONText.optional(e.time)),\"updated\":\(e.updated),\"tz\":\(JSONText.optional(e.tz))"
        p += ",\"url\":\(JSONText.optional(e.url))"
        if products == nil { p += ",\"detail\":\(JSONText.optional(e.detail))" }
        p += ",\"felt\":\(JSONText.optional(e.felt)),\"cdi\":\(JSONText.optional(e.cdi)),\"mmi\":\(JSONText.optional(e.mmi))"
        p += ",\"alert\":\(JSONText.optional(e.alert)),\"status\":\(JSONText.optional(e.status))"
        p += ",\"tsunami\":\(e.tsunami ?? 0),\"sig\":\(JSONText.optional(e.sig))"
        p += ",\"net\":\(JSONText.optional(e.net)),\"code\":\(JSONText.optional(e.code))"
        p += ",\"ids\":\(JSONText.string(CommaList.format(e.ids))),\"sources\":\(JSONText.string(CommaList.format(e.sources)))"
        p += ",\"types\":\(JSONText.string(CommaList.format(e.types)))"
        p += ",\"nst\":\(JSONText.optional(e.nst)),\"dmin\":\(JSONText.optional(e.dmin)),\"rms\":\(JSONText.optional(e.rms))"
        p += ",\"gap\":\(JSONText.optional(e.gap)),\"magType\":\(JSONText.optional(e.magType))"
        p += ",\"type\":\(JSONText.optional(e.eventType)),\"title\":\(JSONText.optional(e.title))"
        if let products { p += ",\"products\":" + products }
        p += "}"
        let geometry: String
        if let longitude = e.longitude, let latitude = e.latitude {
            geometry = "{\"type\":\"Point\",\"coordinates\":[\(JSONText.number(longitude)),\(JSONText.number(latitude)),\(JSONText.optional(e.depthKm))]}"
        } else {
            geometry = "null"
        }
        return "{\"type\":\"Feature\",\"properties\":\(p),\"geometry\":\(geometry),\"id\":\(JSONText.string(e.id))}"
    }

    /// A FeatureCollection with a metadata block (status 200 unless given) and a `bbox` when there are events.
    public static func collection(_ events: [QuakeEvent], metadata: PageMetadata) -> String {
        var out = "{\"type\":\"FeatureCollection\",\"metadata\":\(metadataText(metadata)),\"features\":["
        for (i, event) in events.enumerated() {
            if i > 0 { out += "," }
            out += feature(event)
        }
        out += "]"
        let located = events.filter { $0.longitude != nil && $0.latitude != nil }
        if !located.isEmpty {
            let lons = located.map { $0.longitude! }, lats = located.map { $0.latitude! }
            let depths = located.compactMap(\.depthKm)
            out += ",\"bbox\":[\(JSONText.number(lons.min()!)),\(JSONText.number(lats.min()!)),\(JSONText.number(depths.min() ?? 0))"
            out += ",\(JSONText.number(lons.max()!)),\(JSONText.number(lats.max()!)),\(JSONText.number(depths.max() ?? 0))]"
        }
        return out + "}"
    }

    /// An error answer as `jsonerror=true` gives it: an empty collection whose metadata carries the error.
    public static func error(status: Int, message: String, url: String, generated: Int64, api: String) -> String {
        let metadata = PageMetadata(generated: generated, url: url, title: "Search Error", status: status, api: api, count: 0, error: message)
        return "{\"type\":\"FeatureCollection\",\"metadata\":\(metadataText(metadata)),\"features\":[]}"
    }

    static func metadataText(_ m: PageMetadata) -> String {
        var out = "{\"generated\":\(m.generated ?? 0),\"url\":\(JSONText.optional(m.url)),\"title\":\(JSONText.optional(m.title))"
        out += ",\"status\":\(m.status ?? 200),\"api\":\(JSONText.optional(m.api))"
        if let limit = m.limit { out += ",\"limit\":\(limit)" }
        if let offset = m.offset { out += ",\"offset\":\(offset)" }
        out += ",\"count\":\(m.count ?? 0)"
        if let error = m.error { out += ",\"error\":\(JSONText.string(error))" }
        return out + "}"
    }
}

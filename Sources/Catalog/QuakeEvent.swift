/// One version of one event, as the USGS ComCat catalog describes it.
///
/// This is the value every stage passes along: the stand-in serves it, `fetch`
/// archives pages of it, `index` stores it, `export` thins it. Field names follow
/// the GeoJSON properties (ComCat CSV columns map onto the same fields).
/// Lists (`ids`, `sources`, `types`) hold the bare items; USGS writes them
/// comma-wrapped (`",us7000abcd,ci40123456,"`), see `CommaList`.
public struct QuakeEvent: Sendable, Hashable {
    /// The preferred id (network + code), e.g. `us7000abcd`.
    public var id: String
    /// Every id the event is known by, the preferred one included.
    public var ids: [String]
    /// Contributing networks.
    public var sources: [String]
    /// Product types attached to the event (`origin`, `phase-data`, …).
    public var types: [String]
    /// Origin time, ms since 1970 UTC (negative before 1970). `nil` only for deleted events.
    public var time: Int64?
    /// When any product of the event last changed, ms since 1970 UTC. Orders versions.
    public var updated: Int64
    /// Longitude in [-180, 180]. `nil` only for deleted events.
    public var longitude: Double?
    /// Latitude in [-90, 90]. `nil` only for deleted events.
    public var latitude: Double?
    /// Depth in km (negative above sea level); may be unknown.
    public var depthKm: Double?
    public var mag: Double?
    public var magType: String?
    public var place: String?
    /// Time-zone offset in minutes (older files only).
    public var tz: Int?
    public var url: String?
    public var detail: String?
    public var felt: Int?
    public var cdi: Double?
    public var mmi: Double?
    /// PAGER alert: green, yellow, orange, red.
    public var alert: String?
    /// `automatic`, `reviewed` or `deleted`.
    public var status: String?
    public var tsunami: Int?
    public var sig: Int?
    public var net: String?
    public var code: String?
    public var nst: Int?
    public var dmin: Double?
    public var rms: Double?
    public var gap: Double?
    /// `earthquake`, `quarry blast`, `explosion`, … kept as the service writes it.
    public var eventType: String?
    public var title: String?
    // ComCat CSV-only columns.
    public var horizontalError: Double?
    public var depthError: Double?
    public var magError: Double?
    public var magNst: Int?
    public var locationSource: String?
    public var magSource: String?

    /// An event with only the fields every version must have; everything else unknown.
    public init(id: String, updated: Int64, time: Int64? = nil, longitude: Double? = nil, latitude: Double? = nil) {
        self.id = id
        self.ids = [id]
        self.sources = []
        self.types = []
        self.time = time
        self.updated = updated
        self.longitude = longitude
        self.latitude = latitude
    }

    /// True when the service marks the event deleted.
    public var isDeleted: Bool { status == "deleted" }

    /// Every id this version claims: the preferred id and all of `ids`, each once, preferred first.
    public var allIds: [String] {
        var seen: Set<String> = [id]
        var all = [id]
        for other in ids where !other.isEmpty && seen.insert(other).inserted { all.append(other) }
        return all
    }
}

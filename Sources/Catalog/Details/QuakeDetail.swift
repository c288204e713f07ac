/// The details of one quake as an app shows them, without USGS's product model: made in one
/// place (`QuakeDetail.summarize`) from a detail answer and the content files it names, kept
/// in the store's `details` table and written into bundles (`details/<id>.json`, the app
/// database's `details` table) as `json` writes it. docs/details.md describes every field.
///
/// Values are as USGS gives them (a property `"8.541"` is the number 8.541, never rounded);
/// what could not be had (a file missing or damaged, a value no quake has) is named with the
/// reason in `leftOut`. Texts USGS writes in HTML are plain text here.
public struct QuakeDetail: Sendable, Equatable {
    /// The quake's preferred id, as the detail answer names it.
    public var id: String
    /// The detail's `updated` (ms since 1970): it moves when any product changes.
    public var updated: Int64?
    public var shakeMap: ShakeMap?
    public var pager: Pager?
    public var dyfi: DYFI?
    public var momentTensor: Mechanism?
    public var focalMechanism: Mechanism?
    public var origin: Origin?
    public var nearbyCities: [City]?
    /// The tectonic summary (a `general-text` product headed "Tectonic Summary"), plain text:
    /// paragraphs separated by a blank line.
    public var tectonicSummary: String?
    /// The impact summary (`impact-text`: deaths, damage), plain text.
    public var impact: String?
    /// USGS's pages about the quake (`event`, and one per product shown: `shakemap`, …).
    public var links: [Link]
    /// The parts that could not be had, each with why.
    public var leftOut: [LeftOut]

    public init(id: String) {
        self.id = id
        links = []
        leftOut = []
    }

    /// A quantity with the unit USGS gives it in (`g`, `%g`, `cm/s`, `cms`).
    public struct Measure: Sendable, Equatable {
        public var value: Double
        public var units: String?
    }

    /// ShakeMap: the shaking, its maxima, the stations that measured it, its contours.
    public struct ShakeMap: Sendable, Equatable {
        public var source: String
        /// The product's update time (ms).
        public var updateTime: Int64
        /// Maximum intensity (MMI), peak ground acceleration and velocity.
        public var maxMMI: Double?
        public var maxPGA: Measure?
        public var maxPGV: Measure?
        /// The stations of `download/stationlist.json` with a position, at most `maximumStations`.
        public var stations: [Station]
        /// Stations of the list left out (over the limit, or without a position).
        public var stationsLeftOut: Int
        /// The MMI contours (`download/cont_mmi.json`), when present.
        public var contours: [Contour]
    }

    /// A station of a ShakeMap station list: a seismic instrument or a macroseismic (DYFI) cell.
    public struct Station: Sendable, Equatable {
        public var code: String?
        public var name: String?
        public var network: String?
        /// `seismic` or `macroseismic` (ShakeMap 4); nil in ShakeMap 3.
        public var kind: String?
        public var longitude: Double
        public var latitude: Double
        public var intensity: Double?
        /// Peak ground acceleration (%g) and velocity (cm/s), as the station list gives them.
        public var pga: Double?
        public var pgv: Double?
        /// Distance from the quake, km.
        public var distanceKm: Double?
    }

    /// One MMI contour: its intensity and its lines ([[longitude, latitude]] each).
    public struct Contour: Sendable, Equatable {
        public var mmi: Double
        public var lines: [[[Double]]]
    }

    /// PAGER: the alert, the people exposed to each intensity, the fatality and loss alerts.
    public struct Pager: Sendable, Equatable {
        public var source: String
        public var updateTime: Int64
        /// The PAGER alert level (green, yellow, orange, red).
        public var alert: String?
        /// The estimated fatality and economic loss alert levels.
        public var fatalityAlert: String?
        public var economicAlert: String?
        /// People exposed per intensity, lowest first (empty when not had).
        public var exposure: [Exposure]
    }

    /// People exposed to one intensity.
    public struct Exposure: Sendable, Equatable {
        public var mmi: Int
        public var population: Int64
    }

    /// Did You Feel It?: how many people reported, and the highest intensity they reported.
    public struct DYFI: Sendable, Equatable {
        public var source: String
        public var updateTime: Int64
        public var responses: Int?
        public var maxMMI: Double?
    }

    /// A moment tensor or a focal mechanism.
    public struct Mechanism: Sendable, Equatable {
        public var source: String
        public var code: String
        public var updateTime: Int64
        public var magnitudeType: String?
        public var magnitude: Double?
        /// N·m.
        public var scalarMoment: Double?
        public var depthKm: Double?
        public var percentDoubleCouple: Double?
        /// Both nodal planes, when given (degrees).
        public var nodalPlanes: [NodalPlane]
        /// The principal axes, when given.
        public var tAxis: Axis?
        public var pAxis: Axis?
        public var nAxis: Axis?
        /// The tensor's components (N·m), when given.
        public var tensor: Tensor?
    }

    public struct NodalPlane: Sendable, Equatable {
        public var strike: Double
        public var dip: Double
        public var rake: Double
    }

    public struct Axis: Sendable, Equatable {
        public var azimuth: Double
        public var plunge: Double
    }

    public struct Tensor: Sendable, Equatable {
        public var mrr, mtt, mpp, mrt, mrp, mtp: Double
    }

    /// The preferred origin's quality.
    public struct Origin: Sendable, Equatable {
        public var source: String
        public var updateTime: Int64
        public var reviewStatus: String?
        public var evaluationStatus: String?
        public var magnitudeType: String?
        public var magnitudeError: Double?
        public var magnitudeStations: Int?
        public var stationsUsed: Int?
        public var phasesUsed: Int?
        public var standardError: Double?
        public var azimuthalGap: Double?
        public var minimumDistance: Double?
        public var horizontalErrorKm: Double?
        public var verticalErrorKm: Double?
        public var depthType: String?
    }

    /// A city near the quake.
    public struct City: Sendable, Equatable {
        public var name: String
        public var distanceKm: Double?
        public var direction: String?
        public var population: Int64?
        public var longitude: Double?
        public var latitude: Double?
    }

    public struct Link: Sendable, Equatable {
        public var name: String
        public var url: String
    }

    /// A part that could not be had: `part` names it (`shakemap stations`), `reason` says why.
    public struct LeftOut: Sendable, Equatable {
        public var part: String
        public var reason: String
    }

    /// The most stations kept of a station list (a big Californian quake's lists some thousands).
    public static let maximumStations = 5_000
    /// The most contour points kept in all.
    public static let maximumContourPoints = 50_000
    /// The most nearby cities kept.
    public static let maximumCities = 50
    /// The longest plain text kept (tectonic summary, impact), in characters.
    public static let maximumTextLength = 32_000
}

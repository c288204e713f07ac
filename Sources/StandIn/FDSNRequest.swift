/// A `query` or `count` request, parsed and validated as the service does it
/// (usgs/earthquake-event-ws `FDSNEventWebService::parseQuery`): parameters in the order
/// sent, the first bad one answers, then the checks on combinations in the service's order.
struct FDSNRequest: Sendable {
    var filter = EventFilter()
    var format: Format = .unspecified
    var eventId: String?
    var limit: Int?
    var offset: Int?
    var order: EventOrder = .time
    /// Status for "no events" under the QuakeML rules (204 or 404).
    var noData = 204
    var callback: String?
    var includeSuperseded = false
    /// True when `starttime` was sent; otherwise the service's default (now − 30 days) applies.
    var startTimeGiven = false

    /// The `format` parameter. The real default is QuakeML: the stand-in answers GeoJSON
    /// instead but keeps QuakeML's status rules (see `followsQuakeMLRules`).
    enum Format: Equatable, Sendable {
        case unspecified, geojson, csv
        /// A format the service knows but the stand-in does not serve (quakeml, xml, kml, …).
        case other(String)

        /// The real service's rules for its default format apply: no events → 204 / `nodata`,
        /// deleted events by `eventid` are shown, `includedeleted` is refused.
        var followsQuakeMLRules: Bool {
            switch self {
            case .unspecified: true
            case .other(let name): name == "quakeml" || name == "xml"
            default: false
            }
        }
    }

    static let formats = ["quakeml", "geojson", "csv", "kml", "kmlraw", "xml", "text", "cap"]

    /// Parses `parameters` (name, value pairs in the order sent).
    /// - Parameters:
    ///   - cap: the service's search limit, which also bounds `limit`.
    ///   - sources: the catalogs / contributors known to the service, for validating `catalog` and `contributor`.
    static func parse(_ parameters: [(name: String, value: String)], cap: Int, sources: () -> [String]) throws(ServiceError) -> FDSNRequest {
        var request = FDSNRequest()
        var f = EventFilter()
        var latitude: Double?, longitude: Double?
        var minRadius: Double?, maxRadius: Double?, minRadiusKm: Double?, maxRadiusKm: Double?
        var includeDeleted = false, includeAllOrigins = false, includeAllMagnitudes = false

        typealias V = ParameterValidation
        for (name, value) in lastValues(parameters) where !value.isEmpty {
            switch name {
            case "method", "jsonerror": continue
            case "starttime", "start": f.startTime = try V.time(name, value); request.startTimeGiven = true
            case "endtime", "end": f.endTime = try V.time(name, value)
            case "updatedafter": f.updatedAfter = try V.time(name, value)
            case "minlatitude", "minlat": f.minLatitude = try V.number(name, value, -90...90)
            case "maxlatitude", "maxlat": f.maxLatitude = try V.number(name, value, -90...90)
            case "minlongitude", "minlon": f.minLongitude = try V.number(name, value, -360...360)
            case "maxlongitude", "maxlon": f.maxLongitude = try V.number(name, value, -360...360)
            case "latitude", "lat": latitude = try V.number(name, value, -90...90)
            case "longitude", "lon": longitude = try V.number(name, value, -180...180)
            case "minradius": minRadius = try V.number(name, value, 0...180)
            case "maxradius": maxRadius = try V.number(name, value, 0...180)
            case "minradiuskm": minRadiusKm = try V.number(name, value, 0...20001.6)
            case "maxradiuskm": maxRadiusKm = try V.number(name, value, 0...20001.6)
            case "mindepth": f.minDepth = try V.number(name, value)
            case "maxdepth": f.maxDepth = try V.number(name, value)
            case "minmagnitude", "minmag": f.minMagnitude = try V.number(name, value)
            case "maxmagnitude", "maxmag": f.maxMagnitude = try V.number(name, value)
            case "magnitudetype", "magtype": f.magnitudeType = value
            case "includeallorigins": includeAllOrigins = try V.boolean(name, value)
            case "includeallmagnitudes": includeAllMagnitudes = try V.boolean(name, value)
            case "includearrivals":
                if try V.boolean(name, value) { throw ServiceError(status: 501, message: "includearrivals parameter is not supported") }
            case "eventid": request.eventId = value
            case "limit": request.limit = try V.integer(name, value, min: 0, max: cap)
            case "offset": request.offset = try V.integer(name, value, min: 1, max: nil)
            case "orderby": request.order = EventOrder(rawValue: try V.enumerated(name, value, EventOrder.allCases.map(\.rawValue)))!
            case "catalog": f.catalog = try V.enumerated(name, value, sources())
            case "contributor": f.contributor = try V.enumerated(name, value, sources())
            case "format":
                switch try V.enumerated(name, value, formats) {
                case "geojson": request.format = .geojson
                case "csv": request.format = .csv
                case let other: request.format = .other(other)
                }
            case "callback":
                guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }) else {
                    throw .badRequest("Bad callback value, valid characters include [A-Za-z0-9\\._]")
                }
                request.callback = value
            case "eventtype": f.eventTypes = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.lowercased() }
            case "reviewstatus": f.reviewStatus = try V.enumerated(name, value, ["automatic", "reviewed"])
            case "minmmi": f.minMMI = try V.number(name, value, 0...12)
            case "maxmmi": f.maxMMI = try V.number(name, value, 0...12)
            case "mincdi": f.minCDI = try V.number(name, value, 0...12)
            case "maxcdi": f.maxCDI = try V.number(name, value, 0...12)
            case "minfelt": f.minFelt = try V.integer(name, value, min: 0, max: nil)
            case "alertlevel": f.alertLevel = try V.enumerated(name, value, ["green", "yellow", "orange", "red"])
            case "mingap": f.minGap = try V.number(name, value, 0...360)
            case "maxgap": f.maxGap = try V.number(name, value, 0...360)
            case "minsig": f.minSig = try V.integer(name, value, min: 0, max: nil)
            case "maxsig": f.maxSig = try V.integer(name, value, min: 0, max: nil)
            case "producttype": f.productType = value
            case "productcode": f.productCode = value
            case "kmlcolorby": _ = try V.enumerated(name, value, ["age", "depth"])
            case "kmlanimated": _ = try V.boolean(name, value)
            case "nodata": request.noData = Int(try V.enumerated(name, value, ["204", "404"]))!
            case "includedeleted":
                switch value.lowercased() {
                case "true": f.deleted = .include
                case "false": f.deleted = .exclude
                case "only": f.deleted = .only
                default:
                    throw .badRequest("Bad includedeleted value \"\(value)\". Valid values are (case insensitive): \"TRUE\", \"FALSE\", \"ONLY\".")
                }
                includeDeleted = f.deleted != .exclude
            case "includesuperseded": request.includeSuperseded = try V.boolean(name, value)
            default: throw .badRequest("Unknown parameter \"\(name)\".")
            }
        }

        // Combinations, in the service's order.
        if let minRadiusKm {
            if let minRadius, minRadius != 0 {
                throw .badRequest("Invalid area-circle parameter combination.\nminradius and minradiuskm can not both be specified.")
            }
            minRadius = minRadiusKm / GreatCircle.kilometresPerDegree
        }
        if let maxRadiusKm {
            if maxRadius != nil {
                throw .badRequest("Invalid area-circle parameter combination.\nmaxradius and maxradiuskm can not both be specified.")
            }
            maxRadius = maxRadiusKm / GreatCircle.kilometresPerDegree
        }
        if latitude != nil || longitude != nil || maxRadius != nil {
            guard let latitude, let longitude, let maxRadius else {
                throw .badRequest("Invalid area-circle parameter combination.\nlatitude, longitude, and maxradius must all be specified for area-circle.")
            }
            f.circle = EventFilter.Circle(latitude: latitude, longitude: longitude, minRadius: minRadius ?? 0, maxRadius: maxRadius)
        }
        if let low = f.minLatitude, let high = f.maxLatitude, low > high {
            throw .badRequest("minlatitude must be less than maxlatitude")
        }
        if let low = f.minLongitude, let high = f.maxLongitude, low > high {
            throw .badRequest("minlongitude must be less than maxlongitude")
        }
        if (f.minLongitude.map { $0 < -180 } == true && f.maxLongitude == nil) || (f.maxLongitude.map { $0 > 180 } == true && f.minLongitude == nil) {
            throw .badRequest("Searches that cross dateline require both minlongitude and maxlongitude.")
        }
        if let low = f.minLongitude, let high = f.maxLongitude {
            if high - low > 360 { throw .badRequest("Searches cannot span more than 360 degrees of longitude.") }
            if high - low == 360 { f.minLongitude = nil; f.maxLongitude = nil }
        }
        if !request.format.followsQuakeMLRules && (includeAllOrigins || includeAllMagnitudes) {
            throw .badRequest("Cannot use includeallorigins or includeallmagnitudes parameters when format is not quakeml or xml.")
        }
        if request.format != .geojson {
            if request.callback != nil { throw .badRequest("Cannot use callback parameter unless format is geojson.") }
            if includeDeleted && request.format != .csv {
                throw .badRequest("Cannot use includedeleted parameter unless format is geojson or csv.")
            }
            if request.includeSuperseded { throw .badRequest("Cannot use includesuperseded parameter unless format is geojson.") }
        }
        if request.format == .other("cap") && request.eventId == nil {
            throw .badRequest("Cannot use cap format without eventid parameter.")
        }
        if request.eventId == nil && request.includeSuperseded {
            throw .badRequest("Cannot use includesuperseded parameter without eventid parameter.")
        }
        if includeDeleted && request.includeSuperseded {
            throw .badRequest("Cannot use includedeleted and includesuperseded parameters at same time.")
        }
        request.filter = f
        return request
    }

    /// PHP's `$_GET`: a repeated name keeps its first position and its last value.
    static func lastValues(_ parameters: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var order: [String] = []
        var values: [String: String] = [:]
        for (name, value) in parameters {
            if values.updateValue(value, forKey: name) == nil { order.append(name) }
        }
        return order.map { ($0, values[$0]!) }
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Readers of the product files a summary is made from. Each throws a `DetailError` saying
/// what the file is not; a value out of its range is left out of what is read.
enum DetailFileReaders {
    /// A number given as a JSON number or as text (`"0.264"`; ShakeMap writes `"null"` for none).
    static func number(_ value: JSON?) -> Double? {
        switch value {
        case .double(let d)?: return d.isFinite ? d : nil
        case .int(let i)?: return Double(i)
        case .string(let s)?: return ProductVersion.number(s)
        default: return nil
        }
    }

    static func text(_ value: JSON?) -> String? {
        switch value {
        case .string(let s)?: return s.isEmpty ? nil : String(s.prefix(256))
        case .double(let d)?: return JSONText.number(d)
        default: return nil
        }
    }

    /// Whether `value` is an intensity (MMI 0…12).
    static func isIntensity(_ value: Double) -> Bool { (0...12).contains(value) }

    private static func json(_ data: Data, _ name: String) throws -> JSON {
        guard let json = JSON.parse(data) else { throw DetailError("\(name) is not JSON") }
        return json
    }

    private static func features(_ data: Data, _ name: String) throws -> [JSON] {
        guard case .array(let features)? = try json(data, name)["features"] else {
            throw DetailError("\(name) is not a GeoJSON FeatureCollection")
        }
        return features
    }

    /// `download/stationlist.json`: the stations with a position (at most `QuakeDetail.maximumStations`)
    /// and how many were left out.
    static func stations(_ data: Data) throws -> (stations: [QuakeDetail.Station], leftOut: Int) {
        var stations: [QuakeDetail.Station] = []
        var leftOut = 0
        for feature in try features(data, DetailFiles.stations) {
            guard case .array(let coordinates)? = feature["geometry"]?["coordinates"], coordinates.count >= 2,
                  let longitude = number(coordinates[0]), let latitude = number(coordinates[1]),
                  (-180...180).contains(longitude), (-90...90).contains(latitude),
                  stations.count < QuakeDetail.maximumStations else {
                leftOut += 1
                continue
            }
            let p = feature["properties"]
            stations.append(QuakeDetail.Station(
                code: text(p?["code"]), name: text(p?["name"]), network: text(p?["network"]), kind: text(p?["station_type"]),
                longitude: longitude, latitude: latitude, intensity: number(p?["intensity"]).flatMap { isIntensity($0) ? $0 : nil },
                pga: number(p?["pga"]), pgv: number(p?["pgv"]), distanceKm: number(p?["distance"])))
        }
        return (stations, leftOut)
    }

    /// `download/cont_mmi.json` (or ShakeMap 3's `cont_mi.json`): MultiLineString (or LineString)
    /// features with their intensity in `value`.
    static func contours(_ data: Data, name: String) throws -> [QuakeDetail.Contour] {
        var contours: [QuakeDetail.Contour] = []
        var points = 0
        for feature in try features(data, name) {
            guard let mmi = number(feature["properties"]?["value"]), isIntensity(mmi),
                  case .array(let coordinates)? = feature["geometry"]?["coordinates"] else { continue }
            let type = feature["geometry"]?["type"]
            let lines: [JSON] = type == .string("LineString") ? [.array(coordinates)] : coordinates
            var kept: [[[Double]]] = []
            for line in lines {
                guard case .array(let positions) = line else { continue }
                let pairs = positions.compactMap { position -> [Double]? in
                    guard case .array(let xy) = position, xy.count >= 2, let x = number(xy[0]), let y = number(xy[1]),
                          (-180...180).contains(x), (-90...90).contains(y) else { return nil }
                    return [x, y]
                }
                points += pairs.count
                guard points <= QuakeDetail.maximumContourPoints else {
                    throw DetailError("\(name) has more than \(QuakeDetail.maximumContourPoints) points")
                }
                if pairs.count >= 2 { kept.append(pairs) }
            }
            if !kept.isEmpty { contours.append(QuakeDetail.Contour(mmi: mmi, lines: kept)) }
        }
        return contours
    }

    /// `json/exposures.json`: the people exposed to each intensity (`population_exposure`).
    static func exposure(_ data: Data) throws -> [QuakeDetail.Exposure] {
        let population = try json(data, DetailFiles.pagerExposures)["population_exposure"]
        guard case .array(let intensities)? = population?["mmi"], case .array(let counts)? = population?["aggregated_exposure"],
              intensities.count == counts.count, intensities.count <= 12 else {
            throw DetailError("\(DetailFiles.pagerExposures) has no population_exposure with an mmi and an aggregated_exposure of one length")
        }
        return try zip(intensities, counts).map { mmi, count in
            guard let mmi = number(mmi), isIntensity(mmi), mmi == mmi.rounded(), let count = number(count), count >= 0, count < 1e13 else {
                throw DetailError("\(DetailFiles.pagerExposures) has an exposure that is not a whole intensity and a population")
            }
            return QuakeDetail.Exposure(mmi: Int(mmi), population: Int64(count.rounded()))
        }
    }

    /// `json/alerts.json`: the fatality and economic alert levels.
    static func alertLevels(_ data: Data) throws -> (fatality: String?, economic: String?) {
        let root = try json(data, DetailFiles.pagerAlerts)
        guard case .object = root else { throw DetailError("\(DetailFiles.pagerAlerts) is not a JSON object") }
        return (alertLevel(text(root["fatality"]?["level"])), alertLevel(text(root["economic"]?["level"])))
    }

    /// A PAGER alert level: green, yellow, orange or red (lowercased); nil for anything else.
    static func alertLevel(_ text: String?) -> String? {
        guard let level = text?.lowercased(), ["green", "yellow", "orange", "red"].contains(level) else { return nil }
        return level
    }

    /// `nearby-cities.json`: an array of cities (`name`, `distance` km, `direction`, `population`, position).
    static func cities(_ data: Data) throws -> [QuakeDetail.City] {
        guard case .array(let items) = try json(data, DetailFiles.nearbyCities) else {
            throw DetailError("\(DetailFiles.nearbyCities) is not a JSON array")
        }
        return items.prefix(QuakeDetail.maximumCities).compactMap { item in
            guard let name = text(item["name"]) else { return nil }
            let population = number(item["population"]).flatMap { $0 >= 0 && $0 < 1e13 ? Int64($0.rounded()) : nil }
            return QuakeDetail.City(name: name, distanceKm: number(item["distance"]), direction: text(item["direction"]),
                                    population: population, longitude: number(item["longitude"]), latitude: number(item["latitude"]))
        }
    }

    /// ShakeMap's `download/info.json`: the maxima of intensity, PGA and PGV with their units
    /// (ShakeMap 3 names them `intensity`, `pga`, `pgv`; ShakeMap 4 `MMI`, `PGA`, `PGV`).
    static func shakeMapInfo(_ data: Data) throws -> (mmi: Double?, pga: QuakeDetail.Measure?, pgv: QuakeDetail.Measure?) {
        guard let motions = try json(data, DetailFiles.shakeMapInfo)["output"]?["ground_motions"], case .object = motions else {
            throw DetailError("\(DetailFiles.shakeMapInfo) has no output.ground_motions")
        }
        func measure(_ names: [String]) -> QuakeDetail.Measure? {
            for name in names {
                if let motion = motions[name], let value = number(motion["max"]) { return QuakeDetail.Measure(value: value, units: text(motion["units"])) }
            }
            return nil
        }
        return (measure(["MMI", "intensity"])?.value, measure(["PGA", "pga"]), measure(["PGV", "pgv"]))
    }

    /// PAGER's `pager.xml` (before 2017): the exposures (`<exposure dmin dmax exposure>`, the
    /// intensity the middle of its range) and the alert levels (`<alert type level>`).
    static func pagerXML(_ data: Data) throws -> (exposure: [QuakeDetail.Exposure], fatality: String?, economic: String?) {
        let reader = PagerXMLReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), reader.sawPager else {
            throw DetailError("\(DetailFiles.pagerXML) is not a PAGER document\(parser.parserError.map { ": \($0.localizedDescription)" } ?? "")")
        }
        return (reader.exposure, reader.alerts["fatality"], reader.alerts["economic"])
    }
}

/// Collects what `DetailFileReaders.pagerXML` reads.
private final class PagerXMLReader: NSObject, XMLParserDelegate {
    var exposure: [QuakeDetail.Exposure] = []
    var alerts: [String: String] = [:]
    var sawPager = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "pager": sawPager = true
        case "alert":
            if let type = attributes["type"], let level = DetailFileReaders.alertLevel(attributes["level"]) { alerts[type] = level }
        case "exposure":
            guard exposure.count < 12, let low = attributes["dmin"].flatMap(Double.init), let high = attributes["dmax"].flatMap(Double.init),
                  let people = attributes["exposure"].flatMap(Double.init), people >= 0, people < 1e13 else { return }
            let mmi = ((low + high) / 2).rounded()
            if DetailFileReaders.isIntensity(mmi) { exposure.append(QuakeDetail.Exposure(mmi: Int(mmi), population: Int64(people))) }
        default: break
        }
    }
}

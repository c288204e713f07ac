import Foundation

/// What became of one content file a summary reads: its body as received, or why there is none.
public enum ContentOutcome: Sendable, Equatable {
    case received(Data)
    case leftOut(String)
}

extension QuakeDetail {
    /// The summary of `document`, with the content files `contents` (keyed by `ContentRequest.key`)
    /// the fetcher had for it (`DetailDocument.neededContents`). Every section comes from the
    /// preferred version of its product (`DetailDocument.preferred`); a file missing or damaged
    /// leaves its part out with the reason, never the rest.
    public static func summarize(_ document: DetailDocument, contents: [String: ContentOutcome]) -> QuakeDetail {
        var detail = QuakeDetail(id: document.id)
        detail.updated = document.updated
        var summary = Summary(document: document, contents: contents)
        detail.shakeMap = summary.shakeMap()
        detail.pager = summary.pager()
        detail.dyfi = summary.dyfi()
        detail.momentTensor = document.preferred("moment-tensor").map(Summary.mechanism)
        detail.focalMechanism = document.preferred("focal-mechanism").map(Summary.mechanism)
        detail.origin = document.preferred("origin").map(Summary.origin)
        detail.nearbyCities = summary.cities()
        detail.tectonicSummary = Summary.tectonicSummary(document)
        detail.impact = document.preferred("impact-text").flatMap { Summary.text($0) }
        detail.links = links(document, detail)
        detail.leftOut = summary.leftOut
        return detail
    }

    /// USGS's event page of `id`, and its pages for the products the detail shows.
    private static func links(_ document: DetailDocument, _ detail: QuakeDetail) -> [Link] {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let page = "https://earthquake.usgs.gov/earthquakes/eventpage/" + (document.id.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        var links = [Link(name: "event", url: page)]
        let shown: [(String, Bool, String)] = [
            ("shakemap", detail.shakeMap != nil, "/shakemap"), ("pager", detail.pager != nil, "/pager"), ("dyfi", detail.dyfi != nil, "/dyfi"),
            ("moment_tensor", detail.momentTensor != nil, "/moment-tensor"), ("focal_mechanism", detail.focalMechanism != nil, "/focal-mechanism"),
            ("origin", detail.origin != nil, "/origin/detail"),
        ]
        for (name, present, path) in shown where present { links.append(Link(name: name, url: page + path)) }
        return links
    }
}

extension ContentRequest {
    /// The key of this file in the contents a summary is given: its product and its name.
    public var key: String { "\(product) \(name)" }
}

/// The making of one summary: the document, the files, what was left out so far.
private struct Summary {
    let document: DetailDocument
    let contents: [String: ContentOutcome]
    var leftOut: [QuakeDetail.LeftOut] = []

    init(document: DetailDocument, contents: [String: ContentOutcome]) {
        self.document = document
        self.contents = contents
    }

    /// Reads the file `name` of `version` with `read`; a file the product lists that is missing,
    /// or that `read` refuses, is noted as `part` left out. Nil also when the product has no such file.
    private mutating func read<T>(_ version: ProductVersion, _ name: String, as part: String, _ read: (Data) throws -> T) -> T? {
        guard version.contents[name]?.url != nil else { return nil }
        switch contents[ContentRequest(product: version.type, name: name, url: "").key] {
        case .received(let data)?:
            do {
                return try read(data)
            } catch {
                leftOut.append(QuakeDetail.LeftOut(part: part, reason: "\(error)"))
            }
        case .leftOut(let reason)?:
            leftOut.append(QuakeDetail.LeftOut(part: part, reason: "\(name): \(reason)"))
        case nil:
            leftOut.append(QuakeDetail.LeftOut(part: part, reason: "\(name) was not fetched"))
        }
        return nil
    }

    /// A product property that should be an intensity: nil, and noted, when it is not one.
    private mutating func intensity(_ version: ProductVersion, _ name: String, part: String) -> Double? {
        guard let text = version.properties[name] else { return nil }
        guard let value = ProductVersion.number(text), DetailFileReaders.isIntensity(value) else {
            leftOut.append(QuakeDetail.LeftOut(part: part, reason: "\(version.type) property \(name) \"\(text.prefix(40))\" is no intensity (0…12)"))
            return nil
        }
        return value
    }

    mutating func shakeMap() -> QuakeDetail.ShakeMap? {
        guard let version = document.preferred("shakemap") else { return nil }
        var shakeMap = QuakeDetail.ShakeMap(source: version.source, updateTime: version.updateTime, maxMMI: nil, maxPGA: nil, maxPGV: nil,
                                            stations: [], stationsLeftOut: 0, contours: [])
        shakeMap.maxMMI = intensity(version, "maxmmi", part: "shakemap maximum intensity")
        // ShakeMap 4 gives its maxima in the product's properties (PGA in g, PGV in cm/s, as its
        // info.json says); ShakeMap 3 only in info.json, with its units.
        shakeMap.maxPGA = version.number("maxpga").map { QuakeDetail.Measure(value: $0, units: "g") }
        shakeMap.maxPGV = version.number("maxpgv").map { QuakeDetail.Measure(value: $0, units: "cm/s") }
        if shakeMap.maxPGA == nil || shakeMap.maxPGV == nil,
           let info = read(version, DetailFiles.shakeMapInfo, as: "shakemap maxima", DetailFileReaders.shakeMapInfo) {
            shakeMap.maxMMI = shakeMap.maxMMI ?? info.mmi.flatMap { DetailFileReaders.isIntensity($0) ? $0 : nil }
            shakeMap.maxPGA = shakeMap.maxPGA ?? info.pga
            shakeMap.maxPGV = shakeMap.maxPGV ?? info.pgv
        }
        if let stations = read(version, DetailFiles.stations, as: "shakemap stations", DetailFileReaders.stations) {
            (shakeMap.stations, shakeMap.stationsLeftOut) = stations
        }
        if let name = DetailFiles.contours.first(where: { version.contents[$0]?.url != nil }) {
            shakeMap.contours = read(version, name, as: "shakemap contours") { try DetailFileReaders.contours($0, name: name) } ?? []
        }
        return shakeMap
    }

    mutating func pager() -> QuakeDetail.Pager? {
        guard let version = document.preferred("losspager") else { return nil }
        var pager = QuakeDetail.Pager(source: version.source, updateTime: version.updateTime, alert: nil, fatalityAlert: nil,
                                      economicAlert: nil, exposure: [])
        if let level = version.properties["alertlevel"] {
            pager.alert = DetailFileReaders.alertLevel(level)
            if pager.alert == nil { leftOut.append(QuakeDetail.LeftOut(part: "pager alert", reason: "\"\(level.prefix(40))\" is no PAGER alert level")) }
        }
        if version.contents[DetailFiles.pagerExposures]?.url != nil || version.contents[DetailFiles.pagerAlerts]?.url != nil {
            pager.exposure = read(version, DetailFiles.pagerExposures, as: "pager exposure", DetailFileReaders.exposure) ?? []
            if let levels = read(version, DetailFiles.pagerAlerts, as: "pager fatality and loss alerts", DetailFileReaders.alertLevels) {
                (pager.fatalityAlert, pager.economicAlert) = levels
            }
        } else if let xml = read(version, DetailFiles.pagerXML, as: "pager exposure and alerts", DetailFileReaders.pagerXML) {
            (pager.exposure, pager.fatalityAlert, pager.economicAlert) = xml
        }
        return pager
    }

    mutating func dyfi() -> QuakeDetail.DYFI? {
        guard let version = document.preferred("dyfi") else { return nil }
        let responses = (version.number("num-responses") ?? version.number("numResp")).flatMap { $0 >= 0 && $0 < 1e12 && $0 == $0.rounded() ? Int($0) : nil }
        return QuakeDetail.DYFI(source: version.source, updateTime: version.updateTime, responses: responses,
                                maxMMI: intensity(version, "maxmmi", part: "dyfi maximum intensity"))
    }

    mutating func cities() -> [QuakeDetail.City]? {
        guard let version = document.preferred("nearby-cities") else { return nil }
        return read(version, DetailFiles.nearbyCities, as: "nearby cities", DetailFileReaders.cities)
    }

    /// A moment tensor or focal mechanism from its properties.
    static func mechanism(_ version: ProductVersion) -> QuakeDetail.Mechanism {
        let n = version.number
        let planes = [1, 2].compactMap { k -> QuakeDetail.NodalPlane? in
            guard let strike = n("nodal-plane-\(k)-strike"), let dip = n("nodal-plane-\(k)-dip"), let rake = n("nodal-plane-\(k)-rake") else { return nil }
            return QuakeDetail.NodalPlane(strike: strike, dip: dip, rake: rake)
        }
        func axis(_ name: String) -> QuakeDetail.Axis? {
            guard let azimuth = n("\(name)-axis-azimuth"), let plunge = n("\(name)-axis-plunge") else { return nil }
            return QuakeDetail.Axis(azimuth: azimuth, plunge: plunge)
        }
        var tensor: QuakeDetail.Tensor?
        if let rr = n("tensor-mrr"), let tt = n("tensor-mtt"), let pp = n("tensor-mpp"), let rt = n("tensor-mrt"), let rp = n("tensor-mrp"),
           let tp = n("tensor-mtp") {
            tensor = QuakeDetail.Tensor(mrr: rr, mtt: tt, mpp: pp, mrt: rt, mrp: rp, mtp: tp)
        }
        return QuakeDetail.Mechanism(
            source: version.source, code: version.code, updateTime: version.updateTime,
            magnitudeType: version.properties["derived-magnitude-type"], magnitude: n("derived-magnitude"), scalarMoment: n("scalar-moment"),
            depthKm: n("derived-depth") ?? n("depth"), percentDoubleCouple: n("percent-double-couple"),
            nodalPlanes: planes.count == 2 ? planes : [], tAxis: axis("t"), pAxis: axis("p"), nAxis: axis("n"), tensor: tensor)
    }

    static func origin(_ version: ProductVersion) -> QuakeDetail.Origin {
        let n = version.number, p = version.properties
        func whole(_ name: String) -> Int? { n(name).flatMap { $0 >= 0 && $0 < 1e9 && $0 == $0.rounded() ? Int($0) : nil } }
        return QuakeDetail.Origin(
            source: version.source, updateTime: version.updateTime, reviewStatus: p["review-status"], evaluationStatus: p["evaluation-status"],
            magnitudeType: p["magnitude-type"], magnitudeError: n("magnitude-error"), magnitudeStations: whole("magnitude-num-stations-used"),
            stationsUsed: whole("num-stations-used"), phasesUsed: whole("num-phases-used"), standardError: n("standard-error"),
            azimuthalGap: n("azimuthal-gap"), minimumDistance: n("minimum-distance"), horizontalErrorKm: n("horizontal-error"),
            verticalErrorKm: n("vertical-error"), depthType: p["depth-type"])
    }

    /// A product's own text (its content with the empty path), as plain text; nil when it has none.
    static func text(_ version: ProductVersion) -> String? {
        guard let html = version.contents[""]?.text else { return nil }
        let text = PlainText.from(html: html)
        return text.isEmpty ? nil : text
    }

    /// The preferred `general-text` (or `tectonic-summary`) headed "Tectonic Summary", without its heading.
    static func tectonicSummary(_ document: DetailDocument) -> String? {
        let heading = "Tectonic Summary"
        let summaries = (document.versions("tectonic-summary") + document.versions("general-text")).compactMap { version -> (ProductVersion, String)? in
            guard let text = text(version), text.hasPrefix(heading) || version.type == "tectonic-summary" else { return nil }
            return (version, text)
        }
        guard let best = summaries.max(by: { a, b in
            a.0.preferredWeight != b.0.preferredWeight ? a.0.preferredWeight < b.0.preferredWeight : a.0.updateTime < b.0.updateTime
        }) else { return nil }
        let body = best.1.hasPrefix(heading) ? best.1.dropFirst(heading.count).drop { $0 == "\n" || $0 == " " } : best.1[...]
        return body.isEmpty ? nil : String(body)
    }
}

/// A content file of a detail answer that a quake's summary is made from.
public struct ContentRequest: Sendable, Hashable {
    /// The product type (`shakemap`, `losspager`, `nearby-cities`).
    public var product: String
    /// The file's path in its product (`download/stationlist.json`).
    public var name: String
    /// Where the detail answer says it is.
    public var url: String

    public init(product: String, name: String, url: String) {
        self.product = product
        self.name = name
        self.url = url
    }
}

extension DetailDocument {
    /// The content files of the preferred versions that the summary (`QuakeDetail`) reads, in a
    /// fixed order: PAGER's exposures and alerts (`json/exposures.json`, `json/alerts.json`; a
    /// PAGER of before 2017 has only `pager.xml`, which holds both), ShakeMap's station list and
    /// MMI contours (`download/stationlist.json`; `download/cont_mmi.json`, or ShakeMap 3's
    /// `download/cont_mi.json`) and, when its properties lack the maximum PGA or PGV (ShakeMap 3),
    /// `download/info.json`; the nearby cities (`nearby-cities.json`). Only files the answer lists
    /// with a URL: whether a URL may be fetched (its host) is the fetcher's to decide.
    public var neededContents: [ContentRequest] {
        var requests: [ContentRequest] = []
        func want(_ version: ProductVersion?, _ names: [String], firstOnly: Bool = false) {
            guard let version else { return }
            for name in names {
                guard let url = version.contents[name]?.url else { continue }
                requests.append(ContentRequest(product: version.type, name: name, url: url))
                if firstOnly { return }
            }
        }
        let pager = preferred("losspager")
        if pager?.contents["json/exposures.json"] != nil || pager?.contents["json/alerts.json"] != nil {
            want(pager, [DetailFiles.pagerExposures, DetailFiles.pagerAlerts])
        } else {
            want(pager, [DetailFiles.pagerXML])
        }
        let shakeMap = preferred("shakemap")
        want(shakeMap, [DetailFiles.stations])
        want(shakeMap, DetailFiles.contours, firstOnly: true)
        if let shakeMap, shakeMap.number("maxpga") == nil || shakeMap.number("maxpgv") == nil {
            want(shakeMap, [DetailFiles.shakeMapInfo])
        }
        want(preferred("nearby-cities"), [DetailFiles.nearbyCities])
        return requests
    }
}

/// The names of the content files the summary reads, in their products.
public enum DetailFiles {
    public static let pagerExposures = "json/exposures.json"
    public static let pagerAlerts = "json/alerts.json"
    public static let pagerXML = "pager.xml"
    public static let stations = "download/stationlist.json"
    /// ShakeMap 4's MMI contours, then ShakeMap 3's.
    public static let contours = ["download/cont_mmi.json", "download/cont_mi.json"]
    public static let shakeMapInfo = "download/info.json"
    public static let nearbyCities = "nearby-cities.json"
}

import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// Error answers: the service's texts, plain and as `jsonerror` collections, and the statuses around them.
@Suite struct ErrorTests {
    let standIn: StandInProcess

    init() throws { standIn = try Fixtures.shared.get() }

    @Test func plainErrorHasTheServiceLayoutByteForByte() async throws {
        let (data, response) = try await standIn.get("query", "format=geojson&starttime=not-a-date&limit=5")
        #expect(response.statusCode == 400)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        // The live answer quoted in docs/usgs-fdsn.md, at the same service time.
        #expect(String(decoding: data, as: UTF8.self) == """
            Error 400: Bad Request

            Bad starttime value "not-a-date". Valid values are ISO-8601 timestamps.

            Usage details are available from https://earthquake.usgs.gov/fdsnws/event/1

            Request:
            /fdsnws/event/1/query?format=geojson&amp;starttime=not-a-date&amp;limit=5

            Request Submitted:
            2026-07-26T10:06:54+00:00

            Service version:
            2.7.0

            """)
    }

    @Test func jsonErrorIsACollectionOnHTTP200() async throws {
        let (data, response) = try await standIn.get("query", "format=geojson&jsonerror=true&starttime=not-a-date")
        #expect(response.statusCode == 200)
        let page = CatalogFile.read(data, source: "jsonerror")
        #expect(page.metadata?.status == 400)
        #expect(page.metadata?.title == "Search Error")
        #expect(page.metadata?.error == "Bad starttime value \"not-a-date\". Valid values are ISO-8601 timestamps.")
        #expect(page.metadata?.generated == Expected.ms(Fixtures.now))
        #expect(page.events.isEmpty)
        #expect(page.problem?.contains("status 400") == true)
    }

    @Test(arguments: [
        ("foo=1", 400, "Unknown parameter \"foo\"."),
        ("limit=20001", 400, "Bad limit value \"20001\". Valid values are 0 <= limit <= 20000"),
        ("limit=-1", 400, "Bad limit value \"-1\". Valid values are 0 <= limit <= 20000"),
        ("offset=0", 400, "Bad offset value \"0\". Valid values are 1 <= offset"),
        ("endtime=2019-02-30", 400, "Bad endtime value \"2019-02-30\". Valid values are ISO-8601 timestamps."),
        ("updatedafter=yesterday", 400, "Bad updatedafter value \"yesterday\". Valid values are ISO-8601 timestamps."),
        ("minlatitude=91", 400, "Bad minlatitude value \"91\". Valid values are -90 <= minlatitude <= 90"),
        ("maxlon=540", 400, "Bad maxlon value \"540\". Valid values are -360 <= maxlon <= 360"),
        ("maxradiuskm=20002&latitude=0&longitude=0", 400, "Bad maxradiuskm value \"20002\". Valid values are 0 <= maxradiuskm <= 20001.6"),
        ("minmagnitude=big", 400, "Bad minmagnitude value \"big\". Valid values are numeric"),
        ("minmagnitude=nan", 400, "Bad minmagnitude value \"nan\". Valid values are numeric"),
        ("orderby=size", 400, "Bad orderby value \"size\". Valid values are: \"time\", \"time-asc\", \"magnitude\", \"magnitude-asc\"."),
        ("includedeleted=maybe", 400, "Bad includedeleted value \"maybe\". Valid values are (case insensitive): \"TRUE\", \"FALSE\", \"ONLY\"."),
        ("maxlongitude=190", 400, "Searches that cross dateline require both minlongitude and maxlongitude."),
        ("minlongitude=-200", 400, "Searches that cross dateline require both minlongitude and maxlongitude."),
        ("minlongitude=-181&maxlongitude=180", 400, "Searches cannot span more than 360 degrees of longitude."),
        ("minlongitude=10&maxlongitude=5", 400, "minlongitude must be less than maxlongitude"),
        ("minlatitude=10&maxlatitude=5", 400, "minlatitude must be less than maxlatitude"),
        ("latitude=10&longitude=20", 400, "Invalid area-circle parameter combination.\nlatitude, longitude, and maxradius must all be specified for area-circle."),
        ("latitude=10&longitude=20&maxradius=1&maxradiuskm=5", 400, "Invalid area-circle parameter combination.\nmaxradius and maxradiuskm can not both be specified."),
        ("catalog=zz", 400, "Bad catalog value \"zz\"."),
        ("includearrivals=true", 501, "includearrivals parameter is not supported"),
    ])
    func badParameters(query: String, status: Int, message: String) async throws {
        let (data, response) = try await standIn.get("query", "format=geojson&starttime=2019-01-01&" + query)
        #expect(response.statusCode == status)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("Error \(status): "))
        #expect(text.contains("\n\n\(message)"), "\(text)")
        let (json, jsonResponse) = try await standIn.get("query", "format=geojson&jsonerror=true&starttime=2019-01-01&" + query)
        #expect(jsonResponse.statusCode == 200)
        let page = CatalogFile.read(json, source: "jsonerror")
        #expect(page.metadata?.status == status)
        #expect(page.metadata?.error?.hasPrefix(message) == true)
    }

    @Test func emptyValuesAreNotGiven() async throws {
        let (data, response) = try await standIn.get("count", "starttime=2019-07-01&endtime=2019-07-02&minmagnitude=&foo=&limit=")
        #expect(response.statusCode == 200)
        let (again, _) = try await standIn.get("count", "starttime=2019-07-01&endtime=2019-07-02")
        #expect(data == again)
    }

    @Test func statusesAroundEventsAndFormats() async throws {
        // Unknown eventid: 404 (GeoJSON); the QuakeML default keeps nodata's 204.
        #expect(try await standIn.get("query", "format=geojson&eventid=xx00000000").1.statusCode == 404)
        #expect(try await standIn.get("query", "eventid=xx00000000").1.statusCode == 204)
        #expect(try await standIn.get("query", "eventid=xx00000000&nodata=404").1.statusCode == 404)
        // No events: GeoJSON answers 200 with no features, the default format 204 (or nodata=404).
        let (empty, emptyResponse) = try await standIn.get("query", "format=geojson&starttime=1900-01-01&endtime=1900-01-02")
        #expect(emptyResponse.statusCode == 200)
        #expect(CatalogFile.read(empty, source: "empty").metadata?.count == 0)
        #expect(try await standIn.get("query", "starttime=1900-01-01&endtime=1900-01-02").1.statusCode == 204)
        #expect(try await standIn.get("query", "starttime=1900-01-01&endtime=1900-01-02&nodata=404").1.statusCode == 404)
        // Zero is counted, not refused; no starttime means the last 30 days before the service's now.
        #expect(String(decoding: try await standIn.get("count", "starttime=1900-01-01&endtime=1900-01-02").0, as: UTF8.self) == "0")
        #expect(String(decoding: try await standIn.get("count").0, as: UTF8.self) == "0")
        // includedeleted needs geojson or csv; QuakeML is not served.
        let (deletedText, deleted) = try await standIn.get("query", "starttime=2019-01-01&includedeleted=true")
        #expect(deleted.statusCode == 400)
        #expect(String(decoding: deletedText, as: UTF8.self).contains("Cannot use includedeleted parameter unless format is geojson or csv."))
        #expect(try await standIn.get("query", "format=quakeml&starttime=2019-01-01").1.statusCode == 400)
    }

    @Test func otherMethodsAndPaths() async throws {
        let (version, versionResponse) = try await standIn.get("version")
        #expect(String(decoding: version, as: UTF8.self) == "2.7.0")
        #expect(versionResponse.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        let (application, _) = try await standIn.get("application.json")
        let object = try #require(try JSONSerialization.jsonObject(with: application) as? [String: [String]])
        #expect(Set(object.keys) == ["catalogs", "contributors", "producttypes", "eventtypes", "magnitudetypes"])
        #expect(object["eventtypes"]?.contains("quarry blast") == true)
        let (docs, docsResponse) = try await standIn.get("nonsense")
        #expect(docsResponse.statusCode == 200)
        #expect(String(decoding: docs, as: UTF8.self).contains("<html"))
        let noSlash = try RawHTTP.get(URL(string: "/fdsnws/event/1", relativeTo: standIn.baseURL)!.absoluteURL)
        #expect(noSlash.status == 301)
        #expect(noSlash.headers["location"] == standIn.baseURL.absoluteString)
        let (geojson, _) = try await standIn.get("query.geojson", "starttime=2019-07-01&endtime=2019-07-02")
        #expect(CatalogFile.read(geojson, source: "query.geojson").metadata?.status == 200)
    }

    @Test func gzipWhenAsked() async throws {
        let url = standIn.url("query", "format=geojson&starttime=2019-07-01&endtime=2019-07-08")
        let plain = try RawHTTP.get(url)
        let zipped = try RawHTTP.get(url, headers: ["Accept-Encoding": "gzip, deflate"])
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.headers["content-type"] == "application/json; charset=utf-8")
        #expect(zipped.headers["content-encoding"] == "gzip")
        #expect(zipped.contentLength == zipped.body.count)
        #expect(zipped.body.count * 4 < plain.body.count)
        #expect(try Gzip.decompress(zipped.body) == plain.body)
    }
}

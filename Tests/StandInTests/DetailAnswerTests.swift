import Foundation
import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One event's detail answer (`query?eventid=`) and the product files under `/product/`, as the
/// service answers them (issue 47): the recorded answers of data/detail with their content URLs on
/// the stand-in, an origin product for any other quake, 404 for an unknown id, faults as elsewhere.
@Suite struct DetailAnswerTests {
    static func standIn(faults: [String] = []) throws -> StandInProcess {
        try StandInProcess(catalogs: TestData.recordedDetails + [TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")],
                           faults: faults, details: TestData.details)
    }

    static func products(_ data: Data) throws -> [String: [[String: Any]]] {
        let feature = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(feature["type"] as? String == "Feature")
        return try #require((feature["properties"] as? [String: Any])?["products"] as? [String: [[String: Any]]])
    }

    @Test func aRecordedQuakeHasItsProductsWithTheirFilesOnTheStandIn() async throws {
        let standIn = try Self.standIn()
        let (data, response) = try await standIn.get("query", "eventid=us2000h8ty&format=geojson")
        #expect(response.statusCode == 200 && response.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
        let feature = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(feature["id"] as? String == "us2000h8ty")
        #expect((feature["properties"] as? [String: Any])?["detail"] == nil, "a detail answer names no detail")
        let products = try Self.products(data)
        let recorded = try #require(try JSONSerialization.jsonObject(with: Gzip.decompress(Data(contentsOf: TestData.details.appendingPathComponent("events/us2000h8ty.geojson.gz")))) as? [String: Any])
        let all = try #require((recorded["properties"] as? [String: Any])?["products"] as? [String: [[String: Any]]])
        #expect(Set(products.keys) == Set(all.keys))
        // Without includesuperseded, one version per source and code: the newest.
        #expect(products["losspager"]?.count == 1 && (all["losspager"]?.count ?? 0) > 1)
        #expect((products["losspager"]?.first?["updateTime"] as? NSNumber)?.int64Value == 1541539345392)
        let url = try #require((products["losspager"]?.first?["contents"] as? [String: [String: Any]])?["json/exposures.json"]?["url"] as? String)
        let base = try #require(standIn.baseURL.absoluteString.components(separatedBy: "/fdsnws/").first)
        #expect(url == base + "/product/losspager/us2000h8ty/us/1541539345392/json/exposures.json")
        let (superseded, _) = try await standIn.get("query", "eventid=us2000h8ty&format=geojson&includesuperseded=true")
        #expect(try Self.products(superseded)["losspager"]?.count == all["losspager"]?.count)

        // The file is the recorded one, byte for byte; one not recorded is 404, as a missing file is.
        let session = URLSession(configuration: .ephemeral)
        let (file, fileResponse) = try await session.data(from: URL(string: url)!)
        #expect((fileResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(file == (try Gzip.decompress(Data(contentsOf: TestData.details.appendingPathComponent("product/losspager/us2000h8ty/us/1541539345392/json/exposures.json.gz")))))
        for missing in ["json/losses.json", "../../../events/us2000h8ty.geojson.gz", "json/..%2F..%2Fexposures.json"] {
            let (_, answer) = try await session.data(from: URL(string: base + "/product/losspager/us2000h8ty/us/1541539345392/" + missing)!)
            #expect((answer as? HTTPURLResponse)?.statusCode == 404, "\(missing)")
        }
        let log = try await standIn.requests()
        #expect(log.filter { $0.endpoint == "detail" }.count == 2 && log.filter { $0.endpoint == "product" }.count == 4)
    }

    @Test func anyOtherQuakeHasAnOriginAndAnUnknownIdIs404() async throws {
        let standIn = try Self.standIn()
        let (data, response) = try await standIn.get("query", "eventid=nn00757297&format=geojson")
        #expect(response.statusCode == 200)
        let origin = try #require(try Self.products(data)["origin"]?.first)
        #expect(try Self.products(data).keys.sorted() == ["origin"])
        let properties = try #require(origin["properties"] as? [String: String])
        #expect(properties["magnitude"] == "4.5" && properties["latitude"] == "38.1856" && properties["eventtime"] == "2020-07-06T06:12:54.847Z")
        let (_, unknown) = try await standIn.get("query", "eventid=us0000none&format=geojson")
        #expect(unknown.statusCode == 404)
        _ = try await standIn.delete("nn00757297")
        let (_, deleted) = try await standIn.get("query", "eventid=nn00757297&format=geojson")
        #expect(deleted.statusCode == 409)
        // An updated quake's detail says so.
        _ = try await standIn.update("us2000h8ty", ["felt": 99])
        let (updated, _) = try await standIn.get("query", "eventid=us2000h8ty&format=geojson")
        let feature = try #require(try JSONSerialization.jsonObject(with: updated) as? [String: Any])
        #expect((feature["properties"] as? [String: Any])?["felt"] as? Int == 99)
    }

    @Test(arguments: [("503,next=1,on=detail", "detail", 503), ("truncate,next=1,on=product", "product", 200),
                      ("big=1,next=1,on=product", "product", 200), ("proxy=502,next=1,on=product", "product", 502)])
    func faultsApplyToDetailsAndFiles(fault: String, endpoint: String, status: Int) async throws {
        let standIn = try Self.standIn(faults: [fault])
        let (_, page) = try await standIn.get("query", "format=geojson&starttime=2018-09-01&endtime=2018-09-10")
        #expect(page.statusCode == 200, "a page is not a \(endpoint) request")
        let base = try #require(standIn.baseURL.absoluteString.components(separatedBy: "/fdsnws/").first)
        let file = URL(string: base + "/product/losspager/us2000h8ty/us/1541539345392/json/alerts.json")!
        let answer: HTTPURLResponse?
        if endpoint == "detail" {
            answer = try await standIn.get("query", "eventid=us2000h8ty&format=geojson").1
        } else {
            answer = try await URLSession(configuration: .ephemeral).data(from: file).1 as? HTTPURLResponse
        }
        #expect(answer?.statusCode == status)
        #expect(try await standIn.requests().contains { $0.endpoint == endpoint && $0.fault != nil })
    }

    @Test func theAdminInterfaceServesDetailsAndFilesOfTheTestsOwn() async throws {
        let standIn = try Self.standIn()
        let detail = #"{"type":"Feature","id":"nn00757297","properties":{"ids":",nn00757297,","products":{"nearby-cities":[{"code":"nn00757297","source":"nn","updateTime":1,"preferredWeight":1,"properties":{},"contents":{"nearby-cities.json":{"url":"https://earthquake.usgs.gov/product/nearby-cities/nn00757297/nn/1/nearby-cities.json"}}}]}}}"#
        _ = try await standIn.admin("POST", "details", body: Data(detail.utf8))
        _ = try await standIn.admin("POST", "products/nearby-cities/nn00757297/nn/1/nearby-cities.json", body: Data(#"[{"name":"Mina, Nevada","distance":29}]"#.utf8))
        let (data, _) = try await standIn.get("query", "eventid=nn00757297&format=geojson")
        let url = try #require((try Self.products(data)["nearby-cities"]?.first?["contents"] as? [String: [String: Any]])?["nearby-cities.json"]?["url"] as? String)
        let (file, _) = try await URLSession(configuration: .ephemeral).data(from: URL(string: url)!)
        #expect(String(decoding: file, as: UTF8.self) == #"[{"name":"Mina, Nevada","distance":29}]"#)
        await #expect(throws: (any Error).self) { try await standIn.admin("POST", "details", body: Data("{}".utf8)) }
        await #expect(throws: (any Error).self) { try await standIn.admin("POST", "products/a/%2E%2E/x", body: Data()) }
    }
}

import Foundation
import QuakeCatalog
import Testing

/// The detail summary's reader and maker on what outside can send (issue 47): answers that are
/// not details, values no quake has, damaged and huge files, HTML text.
@Suite struct DetailSummaryTests {
    static func detail(_ products: String, id: String = "us7000test") -> Data {
        Data(#"{"type":"Feature","id":"\#(id)","properties":{"ids":",\#(id),","updated":1700000000000,"products":{\#(products)}}}"#.utf8)
    }

    static func version(_ code: String = "a", source: String = "us", time: Int = 1, weight: Int = 1, properties: String = "{}", contents: String = "{}") -> String {
        #"{"code":"\#(code)","source":"\#(source)","updateTime":\#(time),"preferredWeight":\#(weight),"properties":\#(properties),"contents":\#(contents)}"#
    }

    @Test(arguments: [("not json", "not JSON"), (#"{"type":"FeatureCollection","features":[]}"#, "not a GeoJSON Feature"),
                      (#"{"type":"Feature","id":"x","properties":{}}"#, "no id or no properties.products")])
    func anAnswerThatIsNotADetailSaysWhatItIsNot(text: String, message: String) {
        #expect { try DetailDocument.parse(Data(text.utf8)) } throws: { "\($0)".contains(message) }
    }

    @Test func thePreferredVersionIsTheHeaviestThenTheNewest() throws {
        let document = try DetailDocument.parse(Self.detail(#""shakemap":[\#(Self.version("a", time: 5, weight: 10)),\#(Self.version("b", time: 9, weight: 10)),\#(Self.version("c", time: 99, weight: 2))],"dyfi":[{"code":"x","source":"us","updateTime":3,"status":"DELETE","properties":{}}]"#))
        #expect(document.preferred("shakemap")?.code == "b")
        #expect(document.preferred("dyfi") == nil, "a deleted version is never preferred")
        #expect(document.updated == 1_700_000_000_000 && document.ids == ["us7000test"])
    }

    @Test func valuesAreAsUSGSGivesThemAndNonsenseIsLeftOutWithItsReason() throws {
        let shakeMap = Self.version(properties: #"{"maxmmi":"88026","maxpga":"0.685","maxpgv":"4.682"}"#)
        let pager = Self.version(properties: #"{"alertlevel":"purple"}"#)
        let tensor = Self.version(properties: #"{"scalar-moment":"1.01E+19","derived-magnitude":"6.6","nodal-plane-1-strike":"167.11","nodal-plane-1-dip":"30.14","nodal-plane-1-rake":"102.38","nodal-plane-2-strike":"332.87","nodal-plane-2-dip":"60.63","nodal-plane-2-rake":"82.91","percent-double-couple":"NaN"}"#)
        let document = try DetailDocument.parse(Self.detail(#""shakemap":[\#(shakeMap)],"losspager":[\#(pager)],"moment-tensor":[\#(tensor)]"#))
        let summary = QuakeDetail.summarize(document, contents: [:])
        #expect(summary.shakeMap?.maxMMI == nil && summary.shakeMap?.maxPGA?.value == 0.685 && summary.shakeMap?.maxPGA?.units == "g")
        #expect(summary.pager?.alert == nil)
        #expect(summary.leftOut.map(\.part) == ["shakemap maximum intensity", "pager alert"], "\(summary.leftOut)")
        let mechanism = try #require(summary.momentTensor)
        #expect(mechanism.scalarMoment == 1.01e19 && mechanism.magnitude == 6.6 && mechanism.percentDoubleCouple == nil)
        #expect(mechanism.nodalPlanes.map(\.strike) == [167.11, 332.87])
        let text = summary.json.text
        #expect(text.contains(#""scalar_moment":1.01e+19"#) && text.contains(#""strike":167.11"#), "the numbers USGS gave, unrounded")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test func aDamagedOrMissingFileLeavesItsPartOutAndKeepsTheRest() throws {
        let url = "https://earthquake.usgs.gov/product/shakemap/x/us/1/download/"
        let shakeMap = Self.version(properties: #"{"maxmmi":"7.1"}"#, contents: #"{"download/stationlist.json":{"url":"\#(url)stationlist.json"},"download/cont_mmi.json":{"url":"\#(url)cont_mmi.json"},"download/info.json":{"url":"\#(url)info.json"}}"#)
        let document = try DetailDocument.parse(Self.detail(#""shakemap":[\#(shakeMap)]"#))
        #expect(document.neededContents.map(\.name) == ["download/stationlist.json", "download/cont_mmi.json", "download/info.json"])
        let stations = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[10,20]},"properties":{"code":"A","intensity":"null","pga":0.5}},{"type":"Feature","geometry":null,"properties":{}},{"type":"Feature","geometry":{"type":"Point","coordinates":[500,20]},"properties":{}}]}"#
        let summary = QuakeDetail.summarize(document, contents: [
            "shakemap download/stationlist.json": .received(Data(stations.utf8)),
            "shakemap download/cont_mmi.json": .received(Data(#"{"type":"FeatureCollection","features":[{"#.utf8)),
            "shakemap download/info.json": .leftOut("status 404 (Not Found)"),
        ])
        let shakeMap2 = try #require(summary.shakeMap)
        #expect(shakeMap2.maxMMI == 7.1)
        #expect(shakeMap2.stations.count == 1 && shakeMap2.stationsLeftOut == 2 && shakeMap2.stations[0].intensity == nil && shakeMap2.stations[0].pga == 0.5)
        #expect(summary.leftOut.map { "\($0.part): \($0.reason)" } == [
            "shakemap maxima: download/info.json: status 404 (Not Found)",
            "shakemap contours: download/cont_mmi.json is not JSON",
        ])
        // A contour file of more points than a summary keeps is left out whole.
        let points = (0..<(QuakeDetail.maximumContourPoints + 1)).map { "[\($0 % 100),1]" }.joined(separator: ",")
        let big = QuakeDetail.summarize(document, contents: ["shakemap download/cont_mmi.json": .received(Data(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"value":5},"geometry":{"type":"LineString","coordinates":[\#(points)]}}]}"#.utf8))])
        #expect(big.leftOut.contains { $0.part == "shakemap contours" && $0.reason.contains("more than 50000 points") }, "\(big.leftOut)")
    }

    @Test func htmlBecomesPlainText() {
        let html = "<h2>Tectonic Summary</h2>\n<p>The M&nbsp;7.8 &amp; <a href=\"x\">its</a> aftershocks&#8212;&lt;b&gt;</p><script>alert(1)</script><p>Second<br>line</p>"
        #expect(PlainText.from(html: html) == "Tectonic Summary\n\nThe M 7.8 & its aftershocks—<b>\n\nSecond\nline")
        #expect(PlainText.from(html: String(repeating: "word ", count: 20), limit: 12) == "word word…")
    }
}

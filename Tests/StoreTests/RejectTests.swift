import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeStore
import Testing

/// Bad input: every bad item is a reject row with a reason and its raw text, the
/// good items beside it are stored, and a whole damaged document keeps its good part.
@Suite struct RejectTests {
    /// A GeoJSON feature with the given raw JSON for its parts.
    static func feature(_ id: String, longitude: String = "-117.5", latitude: String = "35.7",
                        time: String = "1600000000000", updated: String = "1600000000001",
                        geometry: String? = nil, idMember: String? = nil) -> String {
        let geometry = geometry ?? #"{"type":"Point","coordinates":[\#(longitude),\#(latitude),8.1]}"#
        return #"{"type":"Feature","properties":{"mag":2.1,"time":\#(time),"updated":\#(updated),"ids":",\#(id),","status":"reviewed","type":"earthquake"},"geometry":\#(geometry),"id":\#(idMember ?? "\"\(id)\"")}"#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","metadata":{"status":200,"count":\#(features.count)},"features":[\#(features.joined(separator: ","))]}"#
    }

    @Test func everyBadKindOfFeatureIsRejectedWithItsReasonAndTheRestIsStored() throws {
        let f = StoreFixture()
        let bad: [(String, String)] = [
            (Self.feature("", idMember: "null").replacingOccurrences(of: #""ids":",,""#, with: #""ids":"""#), "missing id"),
            (Self.feature("b1", geometry: "null"), "geometry is null"),
            (Self.feature("b2", longitude: #""east""#), "longitude is not a number"),
            (Self.feature("b3", latitude: "91"), "latitude 91.0 is outside -90…90"),
            (Self.feature("b4", longitude: "540"), "longitude 540.0 is outside -360…360"),
            (Self.feature("b5", latitude: "NaN"), "latitude is nan (not a finite number)"),
            (Self.feature("b6", longitude: "Infinity"), "longitude is inf (not a finite number)"),
            (Self.feature("b7", time: #""1970-01-01T00:00:02.-2147483648Z""#), "property time is not a valid time"),
            (Self.feature("b8", geometry: #"{"type":"Point","coordinates":[-117.5]}"#), "Point has no [longitude, latitude] coordinates"),
            (Self.feature("b10").replacingOccurrences(of: #""mag":2.1"#, with: #""mag":2.1,,"#), "broken JSON"),
        ]
        // No `updated` (as in files made for web maps) is the oldest possible version, not a reject.
        let good = [Self.feature("g1"), Self.feature("g2", longitude: "190"), Self.feature("g3", longitude: "180"), Self.feature("g4", updated: "null")]
        let source = try f.file("bad.geojson", Self.collection([good[0]] + bad.map(\.0) + good[1...]))
        let summary = try f.index([source])
        #expect(summary.counts.inserted == 4)
        #expect(summary.counts.rejected == bad.count)
        #expect(summary.damaged.isEmpty)
        let stored = try f.events()
        #expect(Set(stored.keys) == ["g1", "g2", "g3", "g4"])
        #expect(stored["g4"]?.updated == PlausibleRanges.earliestTime)
        #expect(stored["g2"]?.longitude == -170)   // 190 normalised into [-180, 180]
        #expect(stored["g3"]?.longitude == 180)    // exactly 180 kept as the service writes it
        let rejects = try f.read { try $0.rejects() }
        #expect(rejects.count == bad.count)
        for (reject, (raw, reason)) in zip(rejects, bad) {
            #expect(reject.source == source.name)
            #expect(reject.reject.reason.contains(reason), "\(reject.reject.reason) should say \(reason)")
            #expect(reject.reject.position.hasPrefix("feature "))
            #expect(reject.reject.raw == raw)
        }
    }

    @Test func csvRowsWithBrokenTimesAndBadCellsAreRejectedByRow() throws {
        let f = StoreFixture()
        let header = ComCatCSV.columns.joined(separator: ",")
        let rows = [
            "2024-10-01T00:00:01.000Z,35.7,-117.5,8.1,2.1,ml,,,,,ci,ci1,2024-10-01T00:05:00.000Z,somewhere,earthquake,,,,,reviewed,ci,ci",
            "1970-01-01T00:00:02.-2147483648Z,35.7,-117.5,8.1,2.1,ml,,,,,ci,ci2,1970-01-01T00:00:02.-2147483648Z,x,earthquake,,,,,automatic,ci,ci",
            "2024-10-01T00:00:01.000Z,95.0,-117.5,8.1,2.1,ml,,,,,ci,ci3,2024-10-01T00:05:00.000Z,x,earthquake,,,,,reviewed,ci,ci",
            "2024-10-01T00:00:01.000Z,35.7,,8.1,2.1,ml,,,,,ci,ci4,2024-10-01T00:05:00.000Z,x,earthquake,,,,,reviewed,ci,ci",
            "2024-10-01T00:00:01.000Z,35.7,-117.5,,,ml,,,,,ci,ci5,2024-10-01T00:05:00.000Z,,earthquake,,,,,reviewed,ci,ci",
        ]
        let summary = try f.index([f.file("rows.csv", ([header] + rows).joined(separator: "\n") + "\n")])
        #expect(summary.counts.inserted == 2 && summary.counts.rejected == 3)
        let stored = try f.events()
        #expect(stored["ci5"]?.mag == nil && stored["ci5"]?.depthKm == nil && stored["ci5"]?.place == nil)  // empty cells are NULL
        #expect(try f.value("SELECT count(*) FROM events WHERE id = 'ci5' AND mag IS NULL AND depth_km IS NULL AND place IS NULL") == "1")
        let rejects = try f.read { try $0.rejects() }.map(\.reject)
        #expect(rejects.map(\.position) == ["row 3", "row 4", "row 5"])
        #expect(rejects[0].reason.contains("not a valid time") && rejects[0].raw.contains("-2147483648"))
        #expect(rejects[1].reason.contains("latitude 95.0"))
        #expect(rejects[2].reason.contains("missing coordinates"))
    }

    @Test func aTruncatedPageKeepsTheFeaturesBeforeTheCut() throws {
        let f = StoreFixture()
        let text = Self.collection((1...5).map { Self.feature("t\($0)") })
        let cut = String(text.prefix(text.count - 120))
        let summary = try f.index([f.file("cut.geojson", cut)])
        #expect(summary.counts.inserted == 4)
        #expect(summary.damaged.count == 1 && summary.damaged[0].contains("cut.geojson") && summary.damaged[0].contains("truncated"))
        let rejects = try f.read { try $0.rejects() }.map(\.reject)
        #expect(rejects.count == 2)
        #expect(rejects.first?.position.hasPrefix("feature 4 ") == true && rejects.first?.reason.contains("truncated") == true)
        #expect(rejects.last?.position == "document" && rejects.last?.reason.contains("truncated") == true)
    }

    @Test(arguments: [
        ("empty.geojson", Data(), "the file is empty"),
        ("binary.bin", Data([0x00, 0x01, 0x02, 0xFF, 0x00, 0x7F] + Array(repeating: 0, count: 64)), "a binary file"),
        ("header.csv", Data("when,where,what\n2024,here,quake\n".utf8), "wrong CSV header"),
        ("broken.geojson", Data(#"{"type":"FeatureCollection","metadata":{"status":200,,"features":[]}"#.utf8), "broken JSON"),
        ("prose.txt", Data("not json at all {".utf8), "wrong CSV header"),
        ("error.geojson", Data(#"{"type":"FeatureCollection","metadata":{"status":400,"error":"Bad starttime value"},"features":[]}"#.utf8), "status 400"),
    ])
    func aDocumentDamagedAsAWholeIsOneRejectNamingIt(name: String, contents: Data, reason: String) throws {
        let f = StoreFixture()
        let summary = try f.index([f.file(name, contents), f.page([quake("ok1", updated: 1)])])
        #expect(summary.counts.inserted == 1)
        #expect(summary.damaged.count == 1)
        #expect(summary.damaged[0].contains(name) && summary.damaged[0].contains(reason), "\(summary.damaged)")
        let rejects = try f.read { try $0.rejects() }
        #expect(rejects.count == 1 && rejects[0].reject.position == "document" && rejects[0].source.hasSuffix(name))
        #expect(try f.value("SELECT problem IS NOT NULL FROM sources WHERE name LIKE '%\(name)'") == "1")
    }

    @Test func aFileThatCannotBeReadIsReportedAndTheOthersAreIndexed() throws {
        let f = StoreFixture()
        let missing = IndexSource.file(f.directory.path("no-such-file.geojson"))
        let summary = try f.index([missing, .file(f.directory.url), f.page([quake("ok1", updated: 1)])])
        #expect(summary.counts.inserted == 1)
        #expect(summary.unreadable.count == 2)
        #expect(summary.unreadable[0].contains("no-such-file.geojson") && summary.unreadable[0].contains("cannot read"))
        #expect(try f.value("SELECT count(*) FROM sources") == "1")  // tried again next run
        #expect(try f.read { try $0.rejects() }.isEmpty)
    }

    @Test func aHugeStringIsRejectedAndItsRawTextIsCut() throws {
        let f = StoreFixture()
        let huge = String(repeating: "x", count: 10 << 20)
        let feature = Self.feature("h1").replacingOccurrences(of: #""status":"reviewed""#, with: #""place":"\#(huge)","status":"reviewed""#)
        let summary = try f.index([f.file("huge.geojson", Self.collection([feature, Self.feature("h2")]))])
        #expect(summary.counts.inserted == 1 && summary.counts.rejected == 1)
        let reject = try f.read { try $0.rejects() }[0].reject
        #expect(reject.reason.contains("place is 10485760 bytes long"))
        #expect(reject.raw.utf8.count < Reject.maximumRawLength + 100 && reject.raw.contains("[cut:"))
    }

    @Test func duplicateIDsInOnePageAreOneEvent() throws {
        let f = StoreFixture()
        let summary = try f.index([f.file("dups.geojson", Self.collection([Self.feature("d1"), Self.feature("d1"), Self.feature("d1", updated: "1600000000009")]))])
        #expect(summary.counts.inserted == 1 && summary.counts.unchanged == 1 && summary.counts.updated == 1)
        #expect(try f.events()["d1"]?.updated == 1_600_000_000_009)
    }
}

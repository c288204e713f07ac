import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// Each FDSN filter, checked against the same filter applied directly to the loaded files.
@Suite struct FilterTests {
    let standIn: StandInProcess
    let catalog = Fixtures.catalog

    init() throws { standIn = try Fixtures.shared.get() }

    /// Every id the stand-in answers for `query` (GeoJSON, no limit), as a set.
    func served(_ query: String) async throws -> Set<String> {
        let (data, response) = try await standIn.get("query", "format=geojson&" + query)
        #expect(response.statusCode == 200, "\(query): \(String(decoding: data.prefix(300), as: UTF8.self))")
        return Set(Expected.ids(data))
    }

    func expected(from start: String = "1900-01-01", to end: String? = nil, _ keep: (QuakeEvent) -> Bool = { _ in true }) -> Set<String> {
        let low = Expected.ms(start), high = end.map(Expected.ms) ?? .max
        return Set(catalog.filter { event in
            guard let time = event.time, time >= low, time <= high, !event.isDeleted else { return false }
            return keep(event)
        }.map(\.id))
    }

    @Test(arguments: [("2018-06-07", "2018-06-10T12:00:00"), ("2018-06-10T12:00:00", "2018-06-14"),
                      ("2019-07-01", "2019-07-15"), ("2019-07-15", "2019-08-01"), ("2019-01-01", "2019-04-01"),
                      ("2010-01-01", "2018-01-01"), ("2020-01-01", "2021-01-01"), ("2021-01-01", "2025-01-01")])
    func countsPerTimeWindow(start: String, end: String) async throws {
        let expected = expected(from: start, to: end)
        let (count, _) = try await standIn.get("count", "starttime=\(start)&endtime=\(end)")
        #expect(String(decoding: count, as: UTF8.self) == String(expected.count))
        let (json, _) = try await standIn.get("count", "format=geojson&starttime=\(start)&endtime=\(end)")
        #expect(String(decoding: json, as: UTF8.self) == "{\"count\":\(expected.count),\"maxAllowed\":20000}")
        #expect(try await served("starttime=\(start)&endtime=\(end)") == expected)
    }

    @Test func timeBoundsAreInclusiveToTheSecond() async throws {
        let event = try #require(catalog.filter { ($0.time ?? 0) % 1000 == 0 && $0.time! > Expected.ms("2019-01-01") }.first)
        let at = ISOTime.formatParameter(milliseconds: event.time!)
        #expect(try await served("starttime=\(at)&endtime=\(at)").contains(event.id))
        let before = ISOTime.formatParameter(milliseconds: event.time! - 1000)
        #expect(try await served("starttime=\(before)&endtime=\(before)").contains(event.id) == false)
    }

    @Test func updatedAfter() async throws {
        let cut = Expected.ms("2019-08-01")
        #expect(try await served("starttime=1900-01-01&updatedafter=2019-08-01") == expected { $0.updated >= cut })
    }

    @Test func rectangle() async throws {
        let ids = try await served("starttime=1900-01-01&minlatitude=32&maxlatitude=36.5&minlongitude=-121&maxlongitude=-114")
        #expect(ids.count > 100)
        #expect(ids == expected { (32...36.5).contains($0.latitude!) && (-121...(-114)).contains($0.longitude!) })
    }

    @Test(arguments: [(170.0, 190.0), (-190.0, -170.0), (120.0, 200.0), (-230.405, -213.838), (-360.0, -300.0)])
    func longitudeWindowsAcrossTheAntimeridian(min: Double, max: Double) async throws {
        let ids = try await served("starttime=1900-01-01&minlongitude=\(min)&maxlongitude=\(max)")
        let inWindow = { (lon: Double) in [lon - 360, lon, lon + 360].contains { $0 >= min && $0 <= max } }
        #expect(ids == expected { inWindow($0.longitude!) })
        #expect(!ids.isEmpty)
    }

    /// Spherical law of cosines (the stand-in uses haversine).
    func degrees(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let c = sin(lat1 * r) * sin(lat2 * r) + cos(lat1 * r) * cos(lat2 * r) * cos((lon2 - lon1) * r)
        return acos(Swift.min(1, Swift.max(-1, c))) / r
    }

    @Test func circleInDegreesKilometresAndRings() async throws {
        let (lat, lon) = (35.7, -117.5)  // Ridgecrest, July 2019
        let degrees = try await served("starttime=1900-01-01&latitude=\(lat)&longitude=\(lon)&maxradius=0.7")
        #expect(degrees.count > 50)
        #expect(degrees == expected { self.degrees(lat, lon, $0.latitude!, $0.longitude!) <= 0.7 })
        let km = try await served("starttime=1900-01-01&latitude=\(lat)&longitude=\(lon)&maxradiuskm=300")
        #expect(km == expected { self.degrees(lat, lon, $0.latitude!, $0.longitude!) <= 300 / 111.12 })
        let ring = try await served("starttime=1900-01-01&latitude=\(lat)&longitude=\(lon)&minradiuskm=100&maxradiuskm=300")
        #expect(ring == expected { (100 / 111.12...300 / 111.12).contains(self.degrees(lat, lon, $0.latitude!, $0.longitude!)) })
        #expect(!ring.isEmpty && ring.isSubset(of: km) && ring.count < km.count)
        let withBox = try await served("starttime=1900-01-01&latitude=\(lat)&longitude=\(lon)&maxradiuskm=300&minlatitude=35.7")
        let latitudes = Dictionary(uniqueKeysWithValues: catalog.map { ($0.id, $0.latitude!) })
        #expect(withBox == km.filter { latitudes[$0]! >= 35.7 })
    }

    @Test func magnitudeDepthAndType() async throws {
        #expect(try await served("starttime=1900-01-01&minmagnitude=4.5&maxmagnitude=5.5")
            == expected { $0.mag.map { (4.5...5.5).contains($0) } ?? false })
        #expect(try await served("starttime=1900-01-01&maxmagnitude=0")
            == expected { $0.mag.map { $0 <= 0 } ?? false })
        #expect(try await served("starttime=1900-01-01&mindepth=-1&maxdepth=2")
            == expected { $0.depthKm.map { (-1...2).contains($0) } ?? false })
        let types = try await served("starttime=1900-01-01&eventtype=quarry blast,explosion")
        #expect(types == expected { ["quarry blast", "explosion"].contains($0.eventType ?? "") })
        #expect(!types.isEmpty)
        #expect(try await served("starttime=1900-01-01&catalog=nc") == expected { $0.sources.contains("nc") || $0.net == "nc" })
    }

    @Test func ordersWithDeterministicTies() async throws {
        let window = "starttime=2018-06-10&endtime=2018-06-11"
        let all = catalog.filter { e in !e.isDeleted && e.time.map { $0 >= Expected.ms("2018-06-10") && $0 <= Expected.ms("2018-06-11") } ?? false }
        let orders: [(String, (QuakeEvent, QuakeEvent) -> Bool)] = [
            ("time", { ($0.time!, $1.id) > ($1.time!, $0.id) }),
            ("time-asc", { ($0.time!, $0.id) < ($1.time!, $1.id) }),
            ("magnitude", { ($0.mag ?? -.infinity, $0.time!, $1.id) > ($1.mag ?? -.infinity, $1.time!, $0.id) }),
            ("magnitude-asc", { ($0.mag ?? -.infinity, $0.time!, $0.id) < ($1.mag ?? -.infinity, $1.time!, $1.id) }),
        ]
        for (name, order) in orders {
            let (data, _) = try await standIn.get("query", "format=geojson&\(window)&orderby=\(name)")
            #expect(Expected.ids(data) == all.sorted(by: order).map(\.id), "orderby=\(name)")
        }
    }

    @Test func limitAndOffsetPageThroughTheOrder() async throws {
        let window = "format=geojson&starttime=2019-07-01&endtime=2019-07-08&orderby=magnitude"
        let (whole, _) = try await standIn.get("query", window)
        var paged: [String] = []
        var offset = 1
        while true {
            let (page, _) = try await standIn.get("query", window + "&limit=400&offset=\(offset)")
            let read = CatalogFile.read(page, source: "page")
            #expect(read.metadata?.limit == 400 && read.metadata?.offset == offset)
            paged += read.events.map(\.id)
            if read.events.count < 400 { break }
            offset += 400
        }
        #expect(paged == Expected.ids(whole))
        #expect(paged.count > 1000)
        let (zero, _) = try await standIn.get("query", window + "&limit=0")
        #expect(CatalogFile.read(zero, source: "limit 0").metadata?.count == 0)
        let (plain, _) = try await standIn.get("query", window)
        #expect(CatalogFile.read(plain, source: "no limit").metadata.map { $0.limit == nil && $0.offset == nil } == true)
    }

    @Test func csvFormatCarriesTheSameEvents() async throws {
        let (data, response) = try await standIn.get("query", "format=csv&starttime=2019-07-10&endtime=2019-07-12")
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/csv")
        let events = CatalogFile.read(data, source: "csv").events
        #expect(Set(events.map(\.id)) == expected(from: "2019-07-10", to: "2019-07-12"))
        #expect(!events.isEmpty)
    }
}

import Foundation
import QuakeCatalog

/// A seeded generator of ComCat-shaped events for benchmarks: the same seed gives
/// the same events, byte for byte.
///
/// What makes it look like the real catalog:
/// - **Where**: clusters for the regional networks that dominate ComCat (shares as in
///   the real 2022–2026 all_day feed) and bands along the major plate boundaries
///   for the global network, with a thin diffuse background (see `SeismicRegion`);
///   longitudes cross the antimeridian and land exactly as the service writes them.
/// - **How big**: Gutenberg–Richter magnitudes (b = 1) above each network's
///   magnitude of completeness, so small events vastly outnumber large ones; a few
///   come out negative, as in the real feed.
/// - **Clustering in time and space**: a quarter of the events are aftershocks,
///   placed within the rupture length of a recent larger event.
/// - **Fields**: ids, sources and types lists (some events with several ids),
///   magnitude types per network, automatic/reviewed status, quarry blasts and ice
///   quakes, PAGER fields for larger events, places and titles in ComCat's words.
public struct SyntheticCatalog: Sequence, IteratorProtocol {
    private var random: SeededRandom
    private var time: Int64
    private let meanGap: Double
    private var counter: UInt64 = 0
    private var recentMainshocks: [(event: QuakeEvent, region: Int)] = []
    private let regionWeights = SeismicRegion.all.map(\.weight)

    /// Starts a catalog at `start` (ms since 1970 UTC) with about `eventsPerDay` events a day.
    public init(seed: UInt64, start: Int64 = 1_640_995_200_000, eventsPerDay: Double = 600) {
        random = SeededRandom(seed: seed)
        time = start
        meanGap = 86_400_000 / eventsPerDay
    }

    /// A catalog for `count` events that ends before 2026-09-01 (so that none is in the future,
    /// which the readers refuse): from 2022-01-01 as usual (1,000,000 events end in 2026-07),
    /// earlier for more events.
    public static func ending(count: Int, seed: UInt64) -> SyntheticCatalog {
        let end: Int64 = 1_788_220_800_000, usualStart: Int64 = 1_640_995_200_000
        let span = Int64(Double(count) / 600 * 86_400_000)  // 600 a day, the usual rate
        return SyntheticCatalog(seed: seed, start: Swift.min(usualStart, end - span))
    }

    /// The next event, in origin-time order. Never ends.
    public mutating func next() -> QuakeEvent? {
        time += Int64(random.exponential(mean: meanGap)) + 1
        counter += 1
        if !recentMainshocks.isEmpty && random.chance(0.25) {
            let (mainshock, region) = recentMainshocks[random.pick(weights: recentMainshocks.indices.map { Double($0 + 1) })]
            return aftershock(of: mainshock, region: region)
        }
        let region = random.pick(weights: regionWeights)
        let (longitude, latitude) = place(in: SeismicRegion.all[region])
        let event = makeEvent(region: region, longitude: longitude, latitude: latitude,
                              magnitude: gutenbergRichter(SeismicRegion.all[region].completeness))
        if let mag = event.mag, mag >= SeismicRegion.all[region].completeness + 2 {
            recentMainshocks.append((event, region))
            if recentMainshocks.count > 32 { recentMainshocks.removeFirst() }
        }
        return event
    }

    /// The next `count` events.
    public mutating func events(_ count: Int) -> [QuakeEvent] {
        (0..<count).map { _ in next()! }
    }

    private mutating func aftershock(of mainshock: QuakeEvent, region: Int) -> QuakeEvent {
        let mainMagnitude = mainshock.mag ?? 0
        let ruptureKm = pow(10, 0.5 * mainMagnitude - 1.85)
        let (longitude, latitude) = offset(mainshock.longitude ?? 0, mainshock.latitude ?? 0,
                                           km: ruptureKm / 2 + 1, random: &random)
        let completeness = SeismicRegion.all[region].completeness
        var magnitude = gutenbergRichter(completeness)
        while magnitude >= mainMagnitude { magnitude = gutenbergRichter(completeness) }
        return makeEvent(region: region, longitude: longitude, latitude: latitude, magnitude: magnitude)
    }

    /// Gutenberg–Richter with b = 1 above `completeness`, plus reading scatter.
    private mutating func gutenbergRichter(_ completeness: Double) -> Double {
        Swift.min(9.4, completeness - log10(random.unit()) + 0.15 * random.normal())
    }

    private mutating func place(in region: SeismicRegion) -> (Double, Double) {
        switch region.shapes[random.pick(weights: region.shapes.map(Self.size))] {
        case .spot(let longitude, let latitude, let sigmaKm):
            return offset(longitude, latitude, km: sigmaKm, random: &random)
        case .belt(let vertices, let sigmaKm):
            let lengths = zip(vertices, vertices.dropFirst()).map { hypot($1.0 - $0.0, $1.1 - $0.1) }
            let segment = random.pick(weights: lengths)
            let f = random.unit()
            let (a, b) = (vertices[segment], vertices[segment + 1])
            return offset(a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, km: sigmaKm, random: &random)
        case .anywhere:
            return (random.unit() * 360 - 180, asin(2 * random.unit() - 1) * 180 / .pi)
        }
    }

    /// How much of a region a shape takes: belts by length, spots alike.
    private static func size(_ shape: SeismicRegion.Shape) -> Double {
        switch shape {
        case .spot: return 1
        case .belt(let vertices, _): return zip(vertices, vertices.dropFirst()).map { hypot($1.0 - $0.0, $1.1 - $0.1) }.reduce(0, +) / 20
        case .anywhere: return 1
        }
    }

    /// A point scattered around (`longitude`, `latitude`) with a standard deviation of `km`,
    /// longitude wrapped into [-180, 180], latitude kept within ±89.9.
    private func offset(_ longitude: Double, _ latitude: Double, km: Double, random: inout SeededRandom) -> (Double, Double) {
        let lat = Swift.max(-89.9, Swift.min(89.9, latitude + random.normal() * km / 111.2))
        var lon = longitude + random.normal() * km / (111.2 * Swift.max(0.05, cos(lat * .pi / 180)))
        lon = (lon + 180).truncatingRemainder(dividingBy: 360)
        lon = (lon < 0 ? lon + 360 : lon) - 180
        return ((lon * 10_000).rounded() / 10_000, (lat * 10_000).rounded() / 10_000)
    }

    private mutating func makeEvent(region index: Int, longitude: Double, latitude: Double, magnitude: Double) -> QuakeEvent {
        let region = SeismicRegion.all[index]
        let code = Self.code(for: region.net, serial: counter)
        var e = QuakeEvent(id: region.net + code, updated: time, time: time, longitude: longitude, latitude: latitude)
        e.net = region.net
        e.code = code
        let coarse = region.magType == "mb"
        e.mag = coarse ? (magnitude * 10).rounded() / 10 : (magnitude * 100).rounded() / 100
        e.magType = magnitude >= 5.5 && coarse ? "mww" : region.magType
        e.depthKm = depth(region)
        e.sources = [region.net]
        if magnitude >= 3.5 && region.net != "us" && random.chance(0.6) {
            e.ids.append("us" + Self.code(for: "us", serial: counter))
            e.sources.append("us")
        } else if region.net == "us" && random.chance(0.3) {
            let other = ["at", "pt", "ak"][random.pick(weights: [1, 1, 1])]
            e.ids.append(other + Self.code(for: other, serial: counter))
            e.sources.append(other)
        }
        e.types = magnitude >= 4.5 ? ["dyfi", "losspager", "moment-tensor", "origin", "phase-data", "shakemap"]
            : magnitude >= 2.5 ? ["dyfi", "origin", "phase-data"] : ["origin", "phase-data"]
        e.eventType = eventType(region, magnitude: magnitude)
        e.status = random.chance(0.55) ? "reviewed" : "automatic"
        e.updated = time + Int64(random.exponential(mean: e.status == "reviewed" ? 3 * 86_400_000 : 600_000))
        e.tsunami = magnitude >= 6.5 && random.chance(0.3) ? 1 : 0
        e.sig = Swift.max(0, Int((magnitude * 100 * magnitude / 6.5).rounded()))
        if magnitude >= 2.5 && random.chance(0.3) {
            e.felt = Int(random.exponential(mean: pow(10, magnitude - 2)))
            e.cdi = (Swift.min(9, 1 + magnitude * random.unit()) * 10).rounded() / 10
        }
        if magnitude >= 4 { e.mmi = (Swift.max(0, Swift.min(9, magnitude - 1 + random.normal())) * 1000).rounded() / 1000 }
        if magnitude >= 5.5 { e.alert = random.chance(0.9) ? "green" : "yellow" }
        e.nst = random.chance(0.8) ? 4 + Int(random.exponential(mean: 25)) : nil
        e.gap = (random.unit() * 300 * 100).rounded() / 100
        e.dmin = (random.exponential(mean: 0.3) * 10_000).rounded() / 10_000
        e.rms = (random.exponential(mean: 0.3) * 100).rounded() / 100
        let directions = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        e.place = "\(Int(random.exponential(mean: 25)) + 1) km \(directions[Int(random.next() % 16)]) of \(region.towns[Int(random.next() % UInt64(region.towns.count))])"
        e.title = "M \(String(format: "%.1f", e.mag ?? 0)) - \(e.place!)"
        e.url = "https://earthquake.usgs.gov/earthquakes/eventpage/\(e.id)"
        e.detail = "https://earthquake.usgs.gov/fdsnws/event/1/query?eventid=\(e.id)&format=geojson"
        return e
    }

    private mutating func depth(_ region: SeismicRegion) -> Double {
        if random.chance(region.deepShare) { return (Swift.min(690, random.exponential(mean: region.deepMeanKm) + 30) * 100).rounded() / 100 }
        if region.net == "us" && random.chance(0.4) { return 10 }
        return ((random.exponential(mean: region.shallowMeanKm) - 1.5) * 1000).rounded() / 1000
    }

    private mutating func eventType(_ region: SeismicRegion, magnitude: Double) -> String {
        guard region.net != "us", magnitude < 2.8 else { return "earthquake" }
        let roll = random.unit()
        if roll < 0.012 { return "quarry blast" }
        if roll < 0.015 { return "explosion" }
        if roll < 0.018 && (region.net == "ak" || region.net == "av") { return "ice quake" }
        return "earthquake"
    }

    /// A unique code per serial number in the network's style: eight digits for the
    /// Californian and Nevadan networks, `7000` and base 36 for `us`, base 36 otherwise.
    private static func code(for net: String, serial: UInt64) -> String {
        let mixed = (serial &* 2_654_435_761) % 2_821_109_907_456  // × a number prime to 36, mod 36^8: one code per serial
        switch net {
        case "nc", "ci", "nn", "uu", "uw", "mb":
            return String(format: "%08llu", (serial &* 7_777_777) % 100_000_000)
        case "us":
            return "7000" + String(String(mixed, radix: 36).suffix(6)).leftPadded(to: 6)
        default:
            return "0" + String(mixed, radix: 36).leftPadded(to: 8)
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

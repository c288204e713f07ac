/// Where the synthetic catalog puts its earthquakes: the networks that dominate
/// ComCat (Alaska, California, Hawaii, Nevada, Texas, Puerto Rico, …, shares as in
/// the real 2022–2026 all_day feed) as clusters, and the global network (`us`)
/// along rough traces of the major plate boundaries.
struct SeismicRegion: Sendable {
    /// Where within the region an event falls.
    enum Shape: Sendable {
        /// A Gaussian spot: centre and standard deviation in km.
        case spot(longitude: Double, latitude: Double, sigmaKm: Double)
        /// A band along a polyline of (longitude, latitude) vertices (longitudes may run past 180
        /// to cross the antimeridian); events scatter across it with the given standard deviation.
        case belt([(Double, Double)], sigmaKm: Double)
        /// Anywhere on Earth (the diffuse background).
        case anywhere
    }

    /// The contributing network (id prefix).
    let net: String
    /// Share of all events.
    let weight: Double
    /// Magnitude of completeness: the Gutenberg–Richter law starts here.
    let completeness: Double
    let magType: String
    /// Mean depth of shallow events (km); `deepShare` of events are deeper (mean `deepMeanKm`).
    let shallowMeanKm: Double
    let deepShare: Double
    let deepMeanKm: Double
    /// Names for `place` ("12 km NNE of <town>").
    let towns: [String]
    let shapes: [Shape]

    static let all: [SeismicRegion] = [
        SeismicRegion(net: "nc", weight: 0.19, completeness: 0.4, magType: "md", shallowMeanKm: 6, deepShare: 0, deepMeanKm: 0,
                      towns: ["The Geysers, CA", "Petrolia, CA", "Mammoth Lakes, CA", "Pinnacles, CA"],
                      shapes: [.spot(longitude: -122.81, latitude: 38.80, sigmaKm: 3), .spot(longitude: -122.2, latitude: 38.0, sigmaKm: 90),
                               .spot(longitude: -118.9, latitude: 37.6, sigmaKm: 10), .spot(longitude: -124.3, latitude: 40.4, sigmaKm: 25)]),
        SeismicRegion(net: "ak", weight: 0.18, completeness: 0.6, magType: "ml", shallowMeanKm: 12, deepShare: 0.3, deepMeanKm: 70,
                      towns: ["Anchorage, Alaska", "Pedro Bay, Alaska", "Fairbanks, Alaska", "Sand Point, Alaska"],
                      shapes: [.spot(longitude: -151.0, latitude: 61.0, sigmaKm: 150), .spot(longitude: -148.0, latitude: 64.5, sigmaKm: 120),
                               .belt([(-165, 53.5), (-158, 55), (-152, 57.5), (-147, 60)], sigmaKm: 40)]),
        SeismicRegion(net: "ci", weight: 0.16, completeness: 0.2, magType: "ml", shallowMeanKm: 7, deepShare: 0, deepMeanKm: 0,
                      towns: ["Ridgecrest, CA", "Borrego Springs, CA", "Anza, CA", "Ocotillo Wells, CA"],
                      shapes: [.spot(longitude: -117.60, latitude: 35.70, sigmaKm: 12), .spot(longitude: -116.6, latitude: 33.9, sigmaKm: 80),
                               .spot(longitude: -115.6, latitude: 33.1, sigmaKm: 20)]),
        SeismicRegion(net: "hv", weight: 0.07, completeness: 0.8, magType: "md", shallowMeanKm: 5, deepShare: 0.15, deepMeanKm: 30,
                      towns: ["Volcano, Hawaii", "Pāhala, Hawaii", "Fern Forest, Hawaii"],
                      shapes: [.spot(longitude: -155.28, latitude: 19.40, sigmaKm: 6), .spot(longitude: -155.5, latitude: 19.4, sigmaKm: 35)]),
        SeismicRegion(net: "av", weight: 0.067, completeness: 0.0, magType: "ml", shallowMeanKm: 4, deepShare: 0.05, deepMeanKm: 20,
                      towns: ["Atka, Alaska", "Adak, Alaska", "Unalaska, Alaska"],
                      shapes: [.spot(longitude: -174.15, latitude: 52.38, sigmaKm: 8), .spot(longitude: -166.93, latitude: 53.42, sigmaKm: 8),
                               .spot(longitude: -153.43, latitude: 59.36, sigmaKm: 8), .spot(longitude: 178.14, latitude: 51.93, sigmaKm: 8)]),
        SeismicRegion(net: "tx", weight: 0.06, completeness: 1.0, magType: "ml", shallowMeanKm: 6, deepShare: 0, deepMeanKm: 0,
                      towns: ["Whites City, New Mexico", "Mentone, Texas", "Pecos, Texas"],
                      shapes: [.spot(longitude: -103.9, latitude: 31.6, sigmaKm: 40)]),
        SeismicRegion(net: "nn", weight: 0.05, completeness: 0.5, magType: "ml", shallowMeanKm: 8, deepShare: 0, deepMeanKm: 0,
                      towns: ["Mina, Nevada", "Dayton, Nevada", "Gabbs, Nevada"],
                      shapes: [.spot(longitude: -118.0, latitude: 38.3, sigmaKm: 120)]),
        SeismicRegion(net: "pr", weight: 0.035, completeness: 1.6, magType: "md", shallowMeanKm: 12, deepShare: 0.1, deepMeanKm: 60,
                      towns: ["Maria Antonia, Puerto Rico", "Indios, Puerto Rico", "Vieques, Puerto Rico"],
                      shapes: [.spot(longitude: -66.85, latitude: 17.95, sigmaKm: 15), .belt([(-68.5, 19.2), (-65.5, 19.3), (-64.0, 18.5)], sigmaKm: 30)]),
        SeismicRegion(net: "uw", weight: 0.03, completeness: 0.5, magType: "ml", shallowMeanKm: 8, deepShare: 0.1, deepMeanKm: 45,
                      towns: ["Mount St. Helens, Washington", "Seattle, Washington", "Ashford, Washington"],
                      shapes: [.spot(longitude: -122.19, latitude: 46.20, sigmaKm: 3), .spot(longitude: -122.3, latitude: 47.0, sigmaKm: 100)]),
        SeismicRegion(net: "uu", weight: 0.026, completeness: 0.6, magType: "md", shallowMeanKm: 6, deepShare: 0, deepMeanKm: 0,
                      towns: ["Yellowstone National Park, Wyoming", "Magna, Utah", "Nephi, Utah"],
                      shapes: [.spot(longitude: -110.7, latitude: 44.6, sigmaKm: 15), .spot(longitude: -112.0, latitude: 39.5, sigmaKm: 90)]),
        SeismicRegion(net: "mb", weight: 0.013, completeness: 0.8, magType: "ml", shallowMeanKm: 8, deepShare: 0, deepMeanKm: 0,
                      towns: ["Lincoln, Montana", "Dillon, Montana"],
                      shapes: [.spot(longitude: -112.5, latitude: 45.8, sigmaKm: 80)]),
        SeismicRegion(net: "ok", weight: 0.013, completeness: 1.2, magType: "ml", shallowMeanKm: 5, deepShare: 0, deepMeanKm: 0,
                      towns: ["Prague, Oklahoma", "Perry, Oklahoma"],
                      shapes: [.spot(longitude: -97.6, latitude: 36.2, sigmaKm: 50)]),
        SeismicRegion(net: "us", weight: 0.10, completeness: 4.0, magType: "mb", shallowMeanKm: 12, deepShare: 0.25, deepMeanKm: 150,
                      towns: ["Hihifo, Tonga", "Sola, Vanuatu", "Tobelo, Indonesia", "Ishinomaki, Japan", "Calama, Chile",
                              "Nikolski, Alaska", "Ambunti, Papua New Guinea", "Kokopo, Papua New Guinea", "Ndoi Island, Fiji"],
                      shapes: plateBoundaries),
        SeismicRegion(net: "us", weight: 0.001, completeness: 4.0, magType: "mb", shallowMeanKm: 10, deepShare: 0, deepMeanKm: 0,
                      towns: ["the Mid-Indian Ridge", "the Central Mid-Atlantic Ridge"], shapes: [.anywhere]),
    ]

    /// Rough traces of the most active plate boundaries: subduction arcs first
    /// (weighted by length, they get most events), then ridges and continental belts.
    static let plateBoundaries: [Shape] = [
        .belt([(160, 52), (170, 53), (180, 51.5), (185, 51.5), (195, 53), (205, 56)], sigmaKm: 40),   // Aleutians
        .belt([(162, 56), (160, 52), (153, 47), (146, 43), (142, 38), (141, 35)], sigmaKm: 60),       // Kamchatka–Kurils–Japan
        .belt([(141, 35), (142, 30), (142, 25), (145, 18), (146, 14), (144, 12)], sigmaKm: 50),       // Izu–Bonin–Mariana
        .belt([(131, 31), (128, 27), (123, 24), (121, 20), (126, 12), (127, 6), (126, 2)], sigmaKm: 60), // Ryukyu–Philippines
        .belt([(95, 13), (93, 7), (96, 3), (100, -2), (104, -6), (110, -9), (118, -10), (125, -9), (130, -7)], sigmaKm: 70), // Sunda
        .belt([(130, -5), (140, -4), (147, -6), (155, -7), (160, -10), (166, -14), (169, -20)], sigmaKm: 60), // New Guinea–Vanuatu
        .belt([(187, -15), (186, -20), (184, -26), (182, -32), (178, -38), (176, -40), (172, -43), (167, -46)], sigmaKm: 50), // Tonga–NZ
        .belt([(-78, 6), (-81, -3), (-78, -10), (-72, -17), (-71, -25), (-72, -33), (-74, -40), (-75, -48)], sigmaKm: 70), // Andes
        .belt([(-78, 7), (-84, 9), (-89, 13), (-94, 15), (-102, 18), (-106, 22)], sigmaKm: 50),        // Central America–Mexico
        .belt([(-124.5, 40.5), (-125, 43), (-125.5, 46), (-126, 49), (-128, 51)], sigmaKm: 40),        // Cascadia
        .belt([(-62, 10), (-60, 14), (-62, 18), (-67, 19), (-72, 20), (-77, 19), (-83, 17), (-88, 16)], sigmaKm: 40), // Caribbean
        .belt([(-10, 36), (0, 37), (10, 37), (15, 38), (20, 39), (23, 37), (28, 38), (35, 38), (42, 39), (48, 37),
               (55, 29), (60, 28), (66, 30), (70, 34), (76, 35), (82, 30), (88, 28), (93, 27), (97, 24), (97, 15)], sigmaKm: 80), // Alpine–Himalayan
        .belt([(-18, 65), (-28, 58), (-35, 52), (-30, 40), (-45, 25), (-40, 10), (-20, 0), (-14, -10), (-13, -30), (-15, -45)], sigmaKm: 20), // Mid-Atlantic Ridge
        .belt([(-108, 23), (-104, 10), (-102, 0), (-110, -20), (-112, -30), (-115, -45), (-120, -55)], sigmaKm: 20), // East Pacific Rise
        .belt([(40, 12), (38, 5), (36, -3), (34, -10), (35, -15)], sigmaKm: 40),                       // East African Rift
    ]
}

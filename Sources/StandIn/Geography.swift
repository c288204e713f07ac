import Foundation

/// Longitude windows as FDSN writes them: bounds in [-360, 360], so a window crossing the
/// antimeridian is written with one bound past ±180 (170…190, or -190…-170).
enum LongitudeWindow {
    /// True when `longitude` (in [-180, 180]) lies in the window. With both bounds the
    /// longitude also matches shifted by ±360; with one bound it is compared as it is.
    static func contains(_ longitude: Double, min: Double?, max: Double?) -> Bool {
        switch (min, max) {
        case (nil, nil): return true
        case (let low?, nil): return longitude >= low
        case (nil, let high?): return longitude <= high
        case (let low?, let high?):
            return [longitude, longitude - 360, longitude + 360].contains { $0 >= low && $0 <= high }
        }
    }
}

/// Great-circle distance on a sphere, in degrees of arc, as the service measures circles.
enum GreatCircle {
    /// Kilometres per degree of arc the service uses to turn `maxradiuskm` into degrees.
    static let kilometresPerDegree = 111.12

    /// The angle between two points (haversine formula, stable for small distances).
    static func degrees(fromLatitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians, dLon = (lon2 - lon1) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * atan2(a.squareRoot(), (1 - a).squareRoot()) / radians
    }
}

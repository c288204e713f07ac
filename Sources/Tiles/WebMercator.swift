import Foundation

/// Web Mercator (EPSG:3857) as the tiles use it, with positions held as 32-bit
/// fixed-point world coordinates: x and y in [0, 2³²) across the whole world,
/// y counted from the north. 32 bits leave 4 bits below the pixel of a 4096-unit
/// tile at zoom 16, so rounding to tile units stays within half a unit.
public enum WebMercator {
    /// The latitude where the square Web Mercator world ends; points beyond are drawn on the edge.
    public static let maximumLatitude = 85.051_128_779_806_59

    /// Tile units across one tile (the MVT `extent`).
    public static let extent = 4096
    /// log2(`extent`).
    public static let extentBits = 12

    /// World x in [0, 1] for a longitude in [-180, 180] (-180 → 0, 180 → 1).
    public static func unitX(longitude: Double) -> Double {
        (longitude + 180) / 360
    }

    /// World y in [0, 1] for a latitude (north pole side → 0); latitudes past ±85.0511° are clamped.
    public static func unitY(latitude: Double) -> Double {
        let clamped = min(max(latitude, -maximumLatitude), maximumLatitude)
        let s = sin(clamped * .pi / 180)
        let y = 0.5 - log((1 + s) / (1 - s)) / (4 * .pi)
        return min(max(y, 0), 1)
    }

    /// A unit coordinate in [0, 1] as fixed point: ⌊u · 2³²⌋, with 1.0 kept on the last value.
    public static func fixed(_ unit: Double) -> UInt32 {
        let scaled = (unit * 4_294_967_296).rounded(.down)
        if !(scaled > 0) { return 0 }
        if scaled >= 4_294_967_295 { return UInt32.max }
        return UInt32(scaled)
    }

    /// The fixed-point world x of a longitude. Longitude 180 lands on the eastern edge of the
    /// last tile column, -180 on the western edge of column 0.
    public static func worldX(longitude: Double) -> UInt32 { fixed(unitX(longitude: longitude)) }

    /// The fixed-point world y of a latitude (clamped to ±85.0511°).
    public static func worldY(latitude: Double) -> UInt32 { fixed(unitY(latitude: latitude)) }

    /// Whether a fixed-point world y lies on the world's northern or southern edge, where every
    /// latitude at or beyond ±85.0511° is drawn: Web Mercator has no room for them.
    @inline(__always)
    public static func isOnPolarEdge(worldY: UInt32) -> Bool { worldY == 0 || worldY == .max }

    /// The longitude of a fixed-point world x.
    public static func longitude(worldX: UInt32) -> Double {
        Double(worldX) / 4_294_967_296 * 360 - 180
    }

    /// The latitude of a fixed-point world y.
    public static func latitude(worldY: UInt32) -> Double {
        let n = Double.pi - 2 * .pi * Double(worldY) / 4_294_967_296
        return atan(sinh(n)) * 180 / .pi
    }

    /// The tile column (or row) holding a world coordinate at `zoom`.
    @inline(__always)
    public static func tileIndex(_ world: UInt32, zoom: Int) -> UInt32 {
        zoom == 0 ? 0 : world >> UInt32(32 - zoom)
    }

    /// The position of a world coordinate inside its tile at `zoom`, in tile units
    /// rounded to the nearest unit: 0…4096 (4096 is the far edge, kept in this tile).
    @inline(__always)
    public static func tileUnits(_ world: UInt32, zoom: Int) -> Int32 {
        let shift = UInt64(32 - extentBits - zoom)
        let global = (UInt64(world) + (1 << (shift - 1))) >> shift
        let origin = UInt64(tileIndex(world, zoom: zoom)) << UInt64(extentBits)
        return Int32(global - origin)
    }
}

import QuakeBundleFormat

/// A tile address: zoom, column x and row y counted from the north (XYZ scheme).
public struct TileKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Zoom level.
    public let z: Int
    /// Column, from the west (antimeridian).
    public let x: UInt32
    /// Row, from the north.
    public let y: UInt32

    public init(z: Int, x: UInt32, y: UInt32) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// `z/x/y`.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// The row in the TMS scheme MBTiles uses: counted from the south (`MBTiles.row`).
    public var tmsRow: UInt32 { UInt32(MBTiles.row(Int(y), zoom: z)) }

    /// Ordered by zoom, then column, then row (the MBTiles insert order).
    public static func < (a: TileKey, b: TileKey) -> Bool {
        (a.z, a.x, a.y) < (b.z, b.x, b.y)
    }

    /// The key in one 64-bit number (zoom in the top bits), for compact files.
    public var packed: UInt64 { UInt64(z) << 58 | UInt64(x) << 29 | UInt64(y) }

    /// The key from `packed`.
    public init(packed: UInt64) {
        self.init(z: Int(packed >> 58), x: UInt32((packed >> 29) & 0x1FFF_FFFF), y: UInt32(packed & 0x1FFF_FFFF))
    }

    /// The PMTiles v3 tile id (``PMTilesTileID``): the tiles of lower zooms, then the Hilbert curve.
    public var pmtilesID: UInt64 { PMTilesTileID.of(z: z, x: x, y: y) }
}

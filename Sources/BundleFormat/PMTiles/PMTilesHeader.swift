/// The 127-byte header of a PMTiles v3 archive (protomaps/PMTiles spec v3, little-endian): the
/// only place its magic and layout are written (the bundle's writer, `publish`'s composer and
/// reader all take it from here).
public struct PMTilesHeader: Sendable, Equatable {
    public static let size = 127
    /// The archive's first bytes: `PMTiles` and the version, 3.
    public static let magic = Array("PMTiles".utf8) + [3]
    /// The compression code of gzip (the header's `internalCompression`, `tileCompression`).
    public static let gzip: UInt8 = 2
    /// The header and the root directory lie within the first 16,384 bytes.
    public static let rootLimit = 16_384

    public var rootOffset = UInt64(PMTilesHeader.size)
    public var rootLength: UInt64 = 0
    public var metadataOffset: UInt64 = 0
    public var metadataLength: UInt64 = 0
    public var leavesOffset: UInt64 = 0
    public var leavesLength: UInt64 = 0
    public var tileDataOffset: UInt64 = 0
    public var tileDataLength: UInt64 = 0
    public var addressedTiles: UInt64 = 0
    public var tileEntries: UInt64 = 0
    public var tileContents: UInt64 = 0
    /// Tile data in tile-id order.
    public var clustered = true
    /// How the directories and the metadata are compressed: ``gzip``.
    public var internalCompression: UInt8 = gzip
    /// How the tiles are compressed: ``gzip``.
    public var tileCompression: UInt8 = gzip
    /// 1: MVT.
    public var tileType: UInt8 = 1
    public var minZoom: UInt8 = 0
    public var maxZoom: UInt8 = 0
    /// west, south, east, north and the centre, in 10^-7 degrees.
    public var bounds: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    public var centerZoom: UInt8 = 0
    public var center: (Int32, Int32) = (0, 0)

    public init() {}

    public static func == (a: PMTilesHeader, b: PMTilesHeader) -> Bool { a.bytes == b.bytes }

    /// Reads a header; `nil` when `bytes` does not start with one of version 3.
    public init?(_ bytes: some Collection<UInt8>) {
        let b = Array(bytes.prefix(Self.size))
        guard b.count == Self.size, Array(b[0..<Self.magic.count]) == Self.magic else { return nil }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[at + $1]) << (8 * UInt32($1)) }) }
        (rootOffset, rootLength, metadataOffset, metadataLength) = (u64(8), u64(16), u64(24), u64(32))
        (leavesOffset, leavesLength, tileDataOffset, tileDataLength) = (u64(40), u64(48), u64(56), u64(64))
        (addressedTiles, tileEntries, tileContents) = (u64(72), u64(80), u64(88))
        (clustered, internalCompression, tileCompression, tileType) = (b[96] == 1, b[97], b[98], b[99])
        (minZoom, maxZoom) = (b[100], b[101])
        bounds = (i32(102), i32(106), i32(110), i32(114))
        centerZoom = b[118]
        center = (i32(119), i32(123))
    }

    /// The header's 127 bytes.
    public var bytes: [UInt8] {
        var out = Self.magic
        for value in [rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength, tileDataOffset, tileDataLength,
                      addressedTiles, tileEntries, tileContents] {
            withUnsafeBytes(of: value.littleEndian) { out += $0 }
        }
        out += [clustered ? 1 : 0, internalCompression, tileCompression, tileType, minZoom, maxZoom]
        for value in [bounds.0, bounds.1, bounds.2, bounds.3] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        out.append(centerZoom)
        for value in [center.0, center.1] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        return out
    }

    /// 10^-7 degrees of `degrees`, as the header stores positions.
    public static func e7(_ degrees: Double) -> Int32 { Int32((degrees * 10_000_000).rounded()) }
}

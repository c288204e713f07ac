/// The PMTiles v3 tile id of a tile: the number of tiles at all lower zooms, (4^z - 1) / 3,
/// plus the position of (x, y) along the Hilbert curve at zoom z (x and y counted from the
/// west and the north, as XYZ tiles are). A directory's entries are in this order.
public enum PMTilesTileID {
    /// The id of tile (`z`, `x`, `y`), `z` at most 31.
    @inlinable
    public static func of(z: Int, x: UInt32, y: UInt32) -> UInt64 {
        var acc = ((UInt64(1) << UInt64(2 * z)) - 1) / 3
        var tx = UInt64(x), ty = UInt64(y)
        var a = z - 1
        while a >= 0 {
            let s = UInt64(1) << UInt64(a)
            let rx = tx & s
            let ry = ty & s
            acc += ((3 * rx) ^ ry) << UInt64(a)
            if ry == 0 {
                if rx != 0 {
                    tx = (s &- 1) &- tx  // wrapping: only the low bits matter below
                    ty = (s &- 1) &- ty
                }
                swap(&tx, &ty)
            }
            a -= 1
        }
        return acc
    }
}

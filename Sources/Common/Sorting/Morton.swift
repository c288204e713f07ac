/// Morton (Z-order) codes of fixed-point world positions.
///
/// Bit 2i holds bit i of x and bit 2i+1 bit i of y, so the top 2z bits of a code
/// name the tile at zoom z, and the top 2(z + k) bits the cell of a 2^k × 2^k grid
/// inside it. Sorting events by code therefore puts every tile and every grid
/// cell, at every zoom, in one contiguous run.
public enum Morton {
    /// The code of (x, y).
    @inline(__always)
    public static func code(x: UInt32, y: UInt32) -> UInt64 {
        spread(x) | (spread(y) << 1)
    }

    /// The top `2 * level` bits of `code`: the cell of a 2^level × 2^level world grid.
    @inline(__always)
    public static func prefix(_ code: UInt64, level: Int) -> UInt64 {
        level == 0 ? 0 : code >> UInt64(64 - 2 * level)
    }

    @inline(__always)
    private static func spread(_ value: UInt32) -> UInt64 {
        var v = UInt64(value)
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | (v << 2)) & 0x3333_3333_3333_3333
        v = (v | (v << 1)) & 0x5555_5555_5555_5555
        return v
    }
}

/// SpatiaLite's internal BLOB geometry for a 2-D POINT, built directly rather
/// than through `MakePoint()` in SQL (the same 60 bytes, without a function call
/// per row). Layout, little-endian: `00 01` · SRID · MBR (4 doubles) · `7C` ·
/// class 1 (POINT) · x · y · `FE`.
enum SpatiaLitePoint {
    static let byteCount = 60

    /// Calls `body` with the BLOB of the point (`longitude`, `latitude`) in `srid`.
    static func withBlob<R>(longitude: Double, latitude: Double, srid: Int32 = 4326,
                            _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { buffer in
            buffer[0] = 0x00
            buffer[1] = 0x01
            buffer.storeBytes(of: UInt32(bitPattern: srid).littleEndian, toByteOffset: 2, as: UInt32.self)
            let x = longitude.bitPattern.littleEndian, y = latitude.bitPattern.littleEndian
            buffer.storeBytes(of: x, toByteOffset: 6, as: UInt64.self)   // MBR min x
            buffer.storeBytes(of: y, toByteOffset: 14, as: UInt64.self)  // MBR min y
            buffer.storeBytes(of: x, toByteOffset: 22, as: UInt64.self)  // MBR max x
            buffer.storeBytes(of: y, toByteOffset: 30, as: UInt64.self)  // MBR max y
            buffer.storeBytes(of: x, toByteOffset: 43, as: UInt64.self)
            buffer.storeBytes(of: y, toByteOffset: 51, as: UInt64.self)
            buffer[38] = 0x7C
            buffer.storeBytes(of: UInt32(1).littleEndian, toByteOffset: 39, as: UInt32.self)
            buffer[59] = 0xFE
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }
}

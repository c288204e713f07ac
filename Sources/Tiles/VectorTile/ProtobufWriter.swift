/// The few protobuf wire-format pieces the vector-tile encoder needs.
///
/// Written by hand rather than generated with swift-protobuf: the tiles use one
/// small message family (Tile, Layer, Feature, Value) and only ever write it, in a
/// few dozen lines, while the swift-protobuf 1.39.0 runtime alone takes 18 s of every
/// clean debug build and 39 s of every release build on this 2-core machine (measured
/// 2026-11-26 in a scratch package; its code generator another 15 s, and `protoc`,
/// which Debian 12 packages but this pipeline would need only for this). The tests
/// decode every tile with the independent Python `mapbox-vector-tile` package to prove
/// the bytes.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    @inline(__always)
    mutating func key(_ field: UInt64, _ type: WireType) {
        varint(field << 3 | type.rawValue)
    }

    mutating func varintField(_ field: UInt64, _ value: UInt64) {
        key(field, .varint)
        varint(value)
    }

    mutating func fixed64Field(_ field: UInt64, _ value: UInt64) {
        key(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bytesField<C: Collection>(_ field: UInt64, _ payload: C) where C.Element == UInt8 {
        key(field, .lengthDelimited)
        varint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends already encoded fields.
    mutating func append(_ encoded: [UInt8]) { bytes.append(contentsOf: encoded) }

    static func varintSize(_ value: UInt64) -> Int {
        var n = 1
        var v = value
        while v >= 0x80 { v >>= 7; n += 1 }
        return n
    }

    /// ZigZag encoding of a signed 32-bit value (MVT geometry parameters).
    static func zigzag32(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }

    /// ZigZag encoding of a signed 64-bit value (`sint_value`).
    static func zigzag64(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}

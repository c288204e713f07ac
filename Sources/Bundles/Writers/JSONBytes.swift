import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// JSON text written straight into bytes, for the big files (the GeoJSON zooms and the
/// preview's data): the same text `JSON` writes (numbers by `JSON.format`, strings escaped
/// as `JSON.quote` escapes them, `<` included), without a value tree or a string per piece.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends text as it is.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text as it is.
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` quoted and escaped.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { quote($0) }
    }

    /// Appends text bytes (UTF-8; invalid sequences are replaced, as `String(decoding:)` does) quoted and escaped.
    mutating func string(_ utf8: TextBytes) {
        // ASCII, the common case, is valid UTF-8 as it is: no String to make.
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return string(String(decoding: utf8, as: UTF8.self)) }
        utf8.withUnsafeBytes { quote($0.bindMemory(to: UInt8.self)) }
    }

    /// Appends valid UTF-8 quoted and escaped.
    private mutating func quote(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var clean = 0
        for (i, byte) in utf8.enumerated() {
            let escape: StaticString
            switch byte {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x3C: escape = "\\u003c"
            case 0..<0x20: escape = ""
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<i]))
            clean = i + 1
            if escape.utf8CodeUnitCount > 0 {
                raw(escape)
            } else {
                raw("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        bytes.append(0x22)
    }

    /// Appends a number as `JSON.format` writes it (`null` when not finite).
    mutating func number(_ value: Double) {
        raw(JSON.format(value))
    }

    /// Appends a whole number.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends a whole number.
    mutating func integer(_ value: Int) { integer(Int64(value)) }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
}

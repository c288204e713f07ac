import Foundation

/// Strings: read, skipped (checked as read) and unescaped.
extension JSONParser {
    mutating func parseString() throws -> String {
        guard offset < bytes.count, bytes[offset] == 0x22 else { throw error("expected a string") }
        offset += 1
        let start = offset
        while offset < bytes.count {
            let c = bytes[offset]
            if c == 0x22 {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                offset += 1
                return text
            }
            if c == 0x5C { return try parseEscapedString(from: start) }
            if c < 0x20 { throw error("control character in string") }
            offset += 1
        }
        throw error("unterminated string")
    }

    /// Moves past a string, checking it as `parseString` would.
    mutating func skipString() throws {
        guard offset < bytes.count, bytes[offset] == 0x22 else { throw error("expected a string") }
        offset += 1
        while offset < bytes.count {
            let c = bytes[offset]
            offset += 1
            switch c {
            case 0x22: return
            case 0x5C: _ = try readEscape()
            default:
                if c < 0x20 { offset -= 1; throw error("control character in string") }
            }
        }
        throw error("unterminated string")
    }

    mutating func parseEscapedString(from start: Int) throws -> String {
        var out = Array(bytes[start..<offset])
        while offset < bytes.count {
            let c = bytes[offset]
            offset += 1
            switch c {
            case 0x22: return String(decoding: out, as: UTF8.self)
            case 0x5C:
                let scalar = try readEscape()
                if scalar < 0x80 {
                    out.append(UInt8(scalar))
                } else {
                    out.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                }
            default:
                if c < 0x20 { offset -= 1; throw error("control character in string") }
                out.append(c)
            }
        }
        throw error("unterminated string")
    }

    /// Reads the escape after a backslash (the read position is just past it) and returns
    /// the code point it stands for (a surrogate pair joined; a lone surrogate as is, which
    /// becomes U+FFFD in the text).
    mutating func readEscape() throws -> UInt32 {
        guard offset < bytes.count else { throw error("unterminated string") }
        let e = bytes[offset]
        offset += 1
        switch e {
        case 0x22, 0x5C, 0x2F: return UInt32(e)
        case 0x62: return 0x08
        case 0x66: return 0x0C
        case 0x6E: return 0x0A
        case 0x72: return 0x0D
        case 0x74: return 0x09
        case 0x75:
            let scalar = try hex4()
            guard (0xD800..<0xDC00).contains(scalar), offset + 1 < bytes.count,
                  bytes[offset] == 0x5C, bytes[offset + 1] == 0x75 else { return scalar }
            let next = offset
            offset += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { offset = next; return scalar }  // not a pair: read on its own
            return 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        default:
            offset -= 1
            throw error("bad escape")
        }
    }

    mutating func hex4() throws -> UInt32 {
        guard offset + 4 <= bytes.count else { throw error("bad \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw error("bad \\u escape")
            }
            value = value * 16 + digit
            offset += 1
        }
        return value
    }

    // MARK: Recovery
}

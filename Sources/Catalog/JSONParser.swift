import Foundation

/// A parsed JSON value; objects keep their members in document order.
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A small JSON reader over bytes.
///
/// Hand-written because Foundation's decoders read ~27,000 features/s on this
/// machine, far below what `index` must sustain, and because a broken page must
/// still give up its good features: the reader reports the byte offset of each
/// syntax error and can skip a damaged element by bracket matching
/// (`skipElement`). It also accepts the non-standard `NaN` and `Infinity`
/// tokens some writers emit, so such a feature is rejected with a reason
/// instead of sinking its page.
struct JSONParser {
    struct SyntaxError: Error {
        let offset: Int
        let message: String
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The read position (byte offset).
    var offset: Int
    private static let maximumDepth = 64

    /// `bytes` must be followed in memory by a NUL byte (see `withParser`), so that
    /// number conversion can stop at the end of the buffer.
    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Runs `body` with a parser over `data`.
    static func withParser<R>(_ data: Data, _ body: (inout JSONParser) throws -> R) rethrows -> R {
        var copy = [UInt8](data)
        copy.append(0)
        return try copy.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: buffer[0..<(buffer.count - 1)]))
            return try body(&parser)
        }
    }

    var atEnd: Bool { offset >= bytes.count }

    /// The text of `range`, for reject records.
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// The next non-blank byte, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        offset += 1
    }

    func error(_ message: String) -> SyntaxError {
        let found = offset < bytes.count ? "'\(Character(Unicode.Scalar(bytes[offset])))'" : "end of input"
        return SyntaxError(offset: offset, message: "\(message), found \(found) at byte \(offset)")
    }

    mutating func parseValue(depth: Int = 0) throws -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        guard let c = peek() else { throw error("expected a value") }
        switch c {
        case 0x7B: return try parseObject(depth: depth)
        case 0x5B:
            offset += 1
            var items: [JSONValue] = []
            if peek() == 0x5D { offset += 1; return .array(items) }
            while true {
                items.append(try parseValue(depth: depth + 1))
                guard let next = peek() else { throw error("unterminated array") }
                offset += 1
                if next == 0x5D { return .array(items) }
                guard next == 0x2C else { offset -= 1; throw error("expected ',' or ']'") }
            }
        case 0x22: return .string(try parseString())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x4E: try literal("NaN"); return .number(.nan)
        case 0x49: try literal("Infinity"); return .number(.infinity)
        default: return .number(try parseNumber())
        }
    }

    mutating func parseObject(depth: Int) throws -> JSONValue {
        try expect(0x7B)
        var members: [(key: String, value: JSONValue)] = []
        if peek() == 0x7D { offset += 1; return .object(members) }
        while true {
            guard peek() == 0x22 else { throw error("expected a member name") }
            let key = try parseString()
            try expect(0x3A)
            members.append((key, try parseValue(depth: depth + 1)))
            guard let next = peek() else { throw error("unterminated object") }
            offset += 1
            if next == 0x7D { return .object(members) }
            guard next == 0x2C else { offset -= 1; throw error("expected ',' or '}'") }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("unexpected token") }
        for k in 0..<count where bytes[offset + k] != word.utf8Start[k] { throw error("unexpected token") }
        offset += count
    }

    mutating func parseNumber() throws -> Double {
        let start = offset
        if bytes[offset] == 0x2D {
            offset += 1
            if offset < bytes.count, bytes[offset] == 0x49 { try literal("Infinity"); return -.infinity }
        }
        var integer: Int64 = 0
        var digits = 0
        var simple = true
        while offset < bytes.count {
            let c = bytes[offset]
            if c >= 0x30 && c <= 0x39 {
                if digits < 18 { integer = integer * 10 + Int64(c - 0x30) } else { simple = false }
                digits += 1
            } else if c == 0x2E || c == 0x65 || c == 0x45 || c == 0x2B || c == 0x2D {
                simple = false
            } else {
                break
            }
            offset += 1
        }
        guard digits > 0 else { offset = start; throw error("expected a value") }
        if simple { return Double(bytes[start] == 0x2D ? -integer : integer) }
        // The buffer is NUL-terminated (withParser), so strtod stops inside it.
        var end: UnsafeMutablePointer<CChar>?
        let pointer = UnsafeRawPointer(bytes.baseAddress! + start).assumingMemoryBound(to: CChar.self)
        let value = strtod(pointer, &end)
        let expectedEnd = UnsafeRawPointer(bytes.baseAddress! + offset)
        guard let end, UnsafeRawPointer(end) == expectedEnd else {
            offset = start
            throw error("malformed number")
        }
        return value
    }

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

    private mutating func parseEscapedString(from start: Int) throws -> String {
        var out = Array(bytes[start..<offset])
        while offset < bytes.count {
            let c = bytes[offset]
            offset += 1
            switch c {
            case 0x22: return String(decoding: out, as: UTF8.self)
            case 0x5C:
                guard offset < bytes.count else { throw error("unterminated string") }
                let e = bytes[offset]
                offset += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), offset + 1 < bytes.count,
                       bytes[offset] == 0x5C, bytes[offset + 1] == 0x75 {
                        offset += 2
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    out.append(contentsOf: String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default:
                    offset -= 1
                    throw error("bad escape")
                }
            default:
                if c < 0x20 { offset -= 1; throw error("control character in string") }
                out.append(c)
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
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

    /// From the start of a damaged array element, moves past it by bracket
    /// matching (string-aware) and stops at the ',' or ']' that ends it.
    /// Returns false when the input ends first (the page is truncated).
    mutating func skipElement(from start: Int) -> Bool {
        offset = start
        var depth = 0
        var inString = false
        while offset < bytes.count {
            let c = bytes[offset]
            if inString {
                if c == 0x5C { offset += 1 } else if c == 0x22 { inString = false }
            } else {
                switch c {
                case 0x22: inString = true
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D:
                    if depth == 0 { return true }
                    depth -= 1
                case 0x2C where depth == 0: return true
                default: break
                }
            }
            offset += 1
        }
        return false
    }
}

import Foundation

extension JSON {
    /// `data` as one JSON document (blanks around it allowed), or nil when it is not one.
    public static func parse(_ data: Data) -> JSON? {
        try? JSONParser.withParser(data) { parser -> JSON? in
            let value = try parser.parseValue()
            return parser.peek() == nil ? value : nil
        } ?? nil
    }
}

/// A JSON value read without building containers: scalars with their value,
/// arrays and objects only as what they are (their content checked and skipped).
enum JSONScalar {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array
    case object
}

/// A small JSON reader over bytes.
///
/// Hand-written because Foundation's decoders are too slow for what `index` must
/// sustain: on a real week of USGS events (`Scripts/bench-index parsers`, 2026-11-26)
/// `GeoJSONReader` reads 249,000 events/s with every property checked,
/// `JSONDecoder` into Codable structs of seven fields 89,000, `JSONSerialization`
/// with the same fields picked from its tree 36,000; and because a broken page must
/// still give up its good features: the reader reports the byte offset of each
/// syntax error and can skip a damaged element by bracket matching
/// (`skipElement`). It also accepts the non-standard `NaN` and `Infinity`
/// tokens some writers emit, so such a feature is rejected with a reason
/// instead of sinking its page. Besides building a tree (`parseValue`), it can
/// walk an object member by member (`forEachMember`) and read or skip single
/// values, so that a GeoJSON feature is decoded straight into an event without
/// a tree per feature; every path checks the syntax alike and reports the same
/// errors at the same offsets.
struct JSONParser {
    struct SyntaxError: Error, CustomStringConvertible {
        let offset: Int
        let message: String

        var description: String { message }
    }

    /// An object member's name: where it lies, and its text when it had escapes.
    struct Name {
        fileprivate let range: Range<Int>
        fileprivate let unescaped: String?
    }

    /// The document (read in place).
    let bytes: UnsafeBufferPointer<UInt8>
    /// The read position (byte offset).
    var offset: Int
    /// Added to offsets in error messages: where byte 0 lies in the file (see `GeoJSONReader.Origin`).
    var reportedBase = 0
    private static let maximumDepth = 64

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.offset = 0
    }

    /// Runs `body` with a parser over `data` (read in place, not copied).
    static func withParser<R>(_ data: Data, _ body: (inout JSONParser) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return try body(&parser)
        }
    }

    /// The number `bytes` are, read as a JSON number is (JSON's grammar, or `strtod`'s where it
    /// is wider), when they are one whole; the CSV reader's numbers, without a `String` round trip.
    static func number(in bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var parser = JSONParser(bytes: bytes)
        guard !bytes.isEmpty, let value = try? parser.parseNumber(), parser.atEnd else { return nil }
        return value
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
        let found = offset >= bytes.count ? "end of input"
            : (0x20..<0x7F).contains(bytes[offset]) ? "'\(Character(Unicode.Scalar(bytes[offset])))'"
            : String(format: "byte 0x%02X", bytes[offset])  // a control or non-ASCII byte, shown as such
        return SyntaxError(offset: offset, message: "\(message), found \(found) at byte \(reportedBase + offset)")
    }

    // MARK: Values

    mutating func parseValue(depth: Int = 0) throws -> JSON {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        switch peek() {
        case 0x7B:
            var members: [(String, JSON)] = []
            try forEachMember(depth: depth) { parser, name in
                members.append((parser.string(of: name), try parser.parseValue(depth: depth + 1)))
            }
            return .object(members)
        case 0x5B:
            var items: [JSON] = []
            try forEachElement { parser in items.append(try parser.parseValue(depth: depth + 1)) }
            return .array(items)
        default:
            switch try readScalar(depth: depth) {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .number(let value): return .double(value)
            case .string(let value): return .string(value)
            case .array, .object: preconditionFailure("containers are handled above")
            }
        }
    }

    /// Reads one value; an array or object is checked and skipped, and only its kind returned.
    mutating func readScalar(depth: Int) throws -> JSONScalar {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        guard let c = peek() else { throw error("expected a value") }
        switch c {
        case 0x7B:
            try forEachMember(depth: depth) { parser, _ in try parser.skipValue(depth: depth + 1) }
            return .object
        case 0x5B:
            try forEachElement { parser in try parser.skipValue(depth: depth + 1) }
            return .array
        case 0x22: return .string(try parseString())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x4E: try literal("NaN"); return .number(.nan)
        case 0x49: try literal("Infinity"); return .number(.infinity)
        default: return .number(try parseNumber())
        }
    }

    /// Moves past one value, checking it as `parseValue` would.
    mutating func skipValue(depth: Int) throws {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
        if peek() == 0x22 { try skipString() } else { _ = try readScalar(depth: depth) }
    }

    /// Reads the object at the read position (at `depth`) member by member: `body` gets each
    /// name with the parser at the member's value, and must read or skip exactly that value.
    mutating func forEachMember(depth: Int, _ body: (inout JSONParser, Name) throws -> Void) throws {
        try expect(0x7B)
        if peek() == 0x7D { offset += 1; return }
        while true {
            guard peek() == 0x22 else { throw error("expected a member name") }
            let name = try parseName()
            try expect(0x3A)
            try body(&self, name)
            guard let next = peek() else { throw error("unterminated object") }
            offset += 1
            if next == 0x7D { return }
            guard next == 0x2C else { offset -= 1; throw error("expected ',' or '}'") }
        }
    }

    /// Reads the array at the read position element by element: `body` must read or skip one element.
    mutating func forEachElement(_ body: (inout JSONParser) throws -> Void) throws {
        try expect(0x5B)
        if peek() == 0x5D { offset += 1; return }
        while true {
            try body(&self)
            guard let next = peek() else { throw error("unterminated array") }
            offset += 1
            if next == 0x5D { return }
            guard next == 0x2C else { offset -= 1; throw error("expected ',' or ']'") }
        }
    }

    // MARK: Member names

    /// True when `name` is exactly `text` (byte for byte, after unescaping).
    func name(_ name: Name, is text: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        if let unescaped = name.unescaped { return unescaped.utf8.elementsEqual(expected) }
        return name.range.count == expected.count && memcmp(bytes.baseAddress! + name.range.lowerBound, expected.baseAddress!, expected.count) == 0
    }

    /// The name's bytes packed into an integer (first byte lowest), or `nil` when it is longer than
    /// 8 bytes: a cheap key for matching against a fixed set of short names (see `packed(_:)`).
    func packedName(_ name: Name) -> UInt64? {
        if let unescaped = name.unescaped { return Self.packed(unescaped) }
        return Self.packed(UnsafeBufferPointer(rebasing: bytes[name.range]))
    }

    /// `text` packed as `packedName` packs a member name.
    static func packed(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8(packed)
    }

    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<bytes.count { value |= UInt64(bytes[index]) << (8 * index) }
        return value
    }

    /// The name as text.
    func string(of name: Name) -> String {
        name.unescaped ?? text(name.range)
    }

    /// Reads a member name, keeping only its position unless it has escapes.
    private mutating func parseName() throws -> Name {
        let start = offset + 1
        var end = start
        while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == 0x22 {
            offset = end + 1
            return Name(range: start..<end, unescaped: nil)
        }
        return Name(range: start..<start, unescaped: try parseString())
    }

    // MARK: Scalars

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw error("unexpected token") }
        for k in 0..<count where bytes[offset + k] != word.utf8Start[k] { throw error("unexpected token") }
        offset += count
    }

    /// Reads a number. Integers of up to 18 digits and plain decimals (`[-]digits.digits`)
    /// of up to 15 significant digits are computed exactly here: the digits as an integer
    /// are then an exact Double, and so is the power of ten (up to 10^22), so one correctly
    /// rounded division gives the very value `strtod` gives. Anything else goes to `strtod`.
    mutating func parseNumber() throws -> Double {
        let start = offset
        let negative = bytes[offset] == 0x2D
        if negative {
            offset += 1
            if offset < bytes.count, bytes[offset] == 0x49 { try literal("Infinity"); return -.infinity }
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var significant = 0
        var fractionDigits = -1  // -1: no point yet
        var plain = true
        while offset < bytes.count {
            let c = bytes[offset]
            if c >= 0x30 && c <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(c - 0x30)
                if mantissa != 0 { significant += 1 }
                digits += 1
                if fractionDigits >= 0 { fractionDigits += 1 }
            } else if c == 0x2E {
                if fractionDigits >= 0 || digits == 0 { plain = false } else { fractionDigits = 0 }
            } else if c == 0x65 || c == 0x45 || c == 0x2B || c == 0x2D {
                plain = false
            } else {
                break
            }
            offset += 1
        }
        guard digits > 0 else { offset = start; throw error("expected a value") }
        if plain && fractionDigits < 0 && digits <= 18 {
            let value = Double(Int64(mantissa))
            return negative ? -value : value  // "-0" is -0.0, as strtod reads it
        }
        if plain && fractionDigits > 0 && fractionDigits < Self.powersOfTen.count && significant <= 15 {
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        guard let value = strtod(start..<offset) else {
            offset = start
            throw error("malformed number")
        }
        return value
    }

    /// Exact powers of ten (every one up to 10^22 is a Double exactly).
    private static let powersOfTen: [Double] = (0...22).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

    /// `strtod` of the bytes of `range`, when it reads all of them (copied, NUL-terminated:
    /// the input has no terminator of its own).
    private func strtod(_ range: Range<Int>) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { buffer in
            for (index, byte) in bytes[range].enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[range.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = Foundation.strtod(buffer.baseAddress!, &end)
            return end == buffer.baseAddress! + range.count ? value : nil
        }
    }

    /// Moves to the next `separator` after `start` (or the end), past at least one byte.
    mutating func skip(toNext separator: UInt8, after start: Int) {
        offset = max(offset, start + 1)
        while offset < bytes.count && bytes[offset] != separator { offset += 1 }
    }

    /// From the start of a damaged array element, moves past it by bracket
    /// matching (string-aware) and stops at the ',' or ']' that ends it.
    /// Returns false when the input ends first (the page is truncated).
    /// A line break ends a string, escaped or not: no JSON string holds one, so a string that
    /// reaches one is broken there (else a quote missing on one line would turn every string
    /// after it inside out), as `ValueScan`, which cuts a big file into pieces, ends it.
    mutating func skipElement(from start: Int) -> Bool {
        offset = start
        var depth = 0
        var inString = false
        while offset < bytes.count {
            let c = bytes[offset]
            if inString {
                if c == 0x0A {
                    inString = false
                } else if c == 0x5C {
                    if offset + 1 < bytes.count && bytes[offset + 1] != 0x0A { offset += 1 }
                } else if c == 0x22 {
                    inString = false
                }
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

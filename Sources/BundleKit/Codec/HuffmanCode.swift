/// A canonical Huffman code of DEFLATE (RFC 1951 3.2.2), made from its code lengths.
///
/// Codes up to ``fastBits`` long are decoded with one look-up of the next bits; longer ones
/// (rare: lengths run to 15) a bit at a time by the canonical rule, as zlib's `puff.c` does.
struct HuffmanCode {
    static let fastBits = 10
    /// Indexed by the next `fastBits` input bits: `symbol << 4 | length`, or 0 when the code is longer.
    private var fast = [UInt16](repeating: 0, count: 1 << fastBits)
    /// How many codes have each length (0…15).
    private var counts = [Int](repeating: 0, count: 16)
    /// The symbols in canonical order (by length, then by value).
    private var symbols: [UInt16] = []

    /// The code whose symbol `i` has length `lengths[i]` (0: unused). An over-subscribed set of
    /// lengths is refused; an incomplete one only when `incompleteAllowed` (a distance code of one
    /// symbol, RFC 1951 3.2.7).
    init(lengths: [UInt8], incompleteAllowed: Bool = false) throws {
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw GzipError.damaged("an over-subscribed Huffman code") }
        }
        let used = lengths.filter { $0 > 0 }.count
        guard left == 0 || incompleteAllowed || used <= 1 else { throw GzipError.damaged("an incomplete Huffman code") }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [UInt16](repeating: 0, count: used)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }
        // The fast table: each code reversed (the stream holds codes most significant bit first).
        var code = 0, index = 0
        for length in 1...Self.fastBits {
            for _ in 0..<counts[length] {
                var reversed = 0
                for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                let entry = UInt16(symbols[index]) << 4 | UInt16(length)
                for slot in stride(from: reversed, to: 1 << Self.fastBits, by: 1 << length) { fast[slot] = entry }
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    /// Decodes the next symbol of `input`.
    @inline(__always) func decode(_ input: inout BitInput) throws -> Int {
        if input.count < 15 { try input.refill() }
        let entry = Int(fast[Int(input.buffer & UInt64((1 << Self.fastBits) - 1))])
        let length = entry & 15
        if length != 0 && length <= input.count {
            input.consume(length)
            return entry >> 4
        }
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            code |= Int(try input.bits(1))
            let count = counts[length]
            if code - first < count { return Int(symbols[index + code - first]) }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw GzipError.damaged("a code that is not in its Huffman table")
    }

    /// The fixed codes of a block of type 1 (RFC 1951 3.2.6).
    static let fixedLiterals = try! HuffmanCode(lengths: [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112)
                                                + [UInt8](repeating: 7, count: 24) + [UInt8](repeating: 8, count: 8))
    static let fixedDistances = try! HuffmanCode(lengths: [UInt8](repeating: 5, count: 30), incompleteAllowed: true)
}

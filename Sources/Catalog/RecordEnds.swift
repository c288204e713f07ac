import Foundation

/// Finds where whole top-level values end: the elements of an array (from just after its `[`)
/// or values one after another, outside strings.
struct ValueScan {
    let inArray: Bool
    /// The byte that closes the array at depth 0: `]`, or `}` for a scan of the members after a
    /// FeatureCollection's features, to the `}` that closes the document.
    let closer: UInt8
    private var depth = 0, inString = false, escaped = false
    /// Something other than blanks came since the array's last comma (or the scan's start).
    private var elementSeen = false
    /// The offset of the array's `]` (its `closer`), once seen.
    private(set) var arrayEnd: Int?

    init(inArray: Bool, closer: UInt8 = 0x5D) {
        self.inArray = inArray
        self.closer = closer
    }

    /// True when the bytes scanned so far end inside a string or brackets.
    var isOpen: Bool { depth > 0 || inString }

    /// The end of the last whole value in `bytes` scanned from `start` (state kept between
    /// calls): for an array, the offset of the comma after it; else just after its last byte.
    mutating func lastEnd(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { lastEnd(in: $0, from: start) }
    }

    /// For a sequence's records: just after the first place from `start` where one ends (a line
    /// break outside strings and brackets, or a record separator anywhere), or nil. The reader
    /// ends a broken record there (`GeoJSONReader`), where a big file read in pieces is cut.
    mutating func firstEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        lastEnd(in: bytes, from: start, firstOnly: true)
    }

    /// Every byte of a file goes through here once: outside strings byte by byte, inside them
    /// from quote to quote (`memchr`), a quote escaped when an odd run of backslashes precedes it.
    private mutating func lastEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, firstOnly: Bool = false) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var last: Int?
        var i = start
        while i < count && arrayEnd == nil && !(firstOnly && last != nil) {
            if inString {
                if escaped {
                    escaped = false
                    // A backslash escapes neither a line break nor, in a sequence, a record separator: those end the string.
                    if base[i] != 0x0A && (inArray || base[i] != 0x1E) {
                        i += 1
                        continue
                    }
                }
                let quote = memchr(base + i, 0x22, count - i)
                // A line break ends a string, escaped or not (no JSON string holds one raw), as the
                // reader's bracket matching ends it (`JSONParser.skipElement`): read on from it as outside strings.
                let newline = memchr(base + i, 0x0A, (quote.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count) - i)
                let stringEnd = (newline ?? quote).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
                // A record separator in a sequence ends any record, even inside a string (no JSON text
                // holds one raw): a record with an unclosed string or bracket ends there, as the reader ends it.
                if !inArray, let separator = memchr(base + i, 0x1E, stringEnd - i) {
                    i = base.distance(to: separator.assumingMemoryBound(to: UInt8.self))
                    inString = false
                    continue
                }
                if let newline {
                    i = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    inString = false
                    continue
                }
                guard let quote else {
                    // The string goes on past these bytes: an odd run of backslashes at their end escapes what follows.
                    escaped = Self.backslashes(before: count, from: i, in: base) % 2 == 1
                    i = count
                    break
                }
                let q = base.distance(to: quote.assumingMemoryBound(to: UInt8.self))
                if Self.backslashes(before: q, from: i, in: base) % 2 == 0 { inString = false }
                i = q + 1
                continue
            }
            let byte = base[i]
            if inArray && !(byte == 0x2C && depth == 0) && byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 { elementSeen = true }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D:
                if depth == 0 && inArray && byte == closer {
                    arrayEnd = i
                } else if depth > 0 {
                    depth -= 1
                }
                // A stray closer between a sequence's records is part of a broken record (the
                // reader rejects it), not a fall below zero that would make the rest one record;
                // one of the other kind between an array's elements is where the reader stops
                // (`{"features":[1 }` is broken at its `}`), not the array's end (found by Scripts/fuzz).
            // A comma after an empty element is not an end: a piece cut there would end `,]` where
            // the file has `,,`, and the reader would find `]` where reading whole finds `,`.
            case 0x2C where depth == 0 && inArray:
                if elementSeen { last = i }
                elementSeen = false
            // A sequence's records end with a line outside any value: the reader goes on at the next
            // line after a broken one, so pieces end where lines do; and after a record separator, at
            // any depth (the reader ends a broken record of a text sequence at the next one).
            case 0x0A where depth == 0 && !inArray: last = i + 1
            case 0x1E where !inArray:
                depth = 0
                last = i + 1
            default: break
            }
            i += 1
        }
        return last
    }

    /// How many backslashes come right before offset `end`, counting no further back than `start`.
    private static func backslashes(before end: Int, from start: Int, in base: UnsafePointer<UInt8>) -> Int {
        var n = 0
        while end - n - 1 >= start && base[end - n - 1] == 0x5C { n += 1 }
        return n
    }
}

/// Finds where CSV records end, as `CSVRows` reads them: a row ends at `\n`, `\r\n` or a lone `\r`
/// outside a quoted cell; a cell is quoted only when a quote opens it (a quote inside an unquoted
/// cell, or after a quoted cell's closing quote, is a character like any other); a doubled quote
/// in a quoted cell is a quote. A file read in pieces is cut here, and its rows are counted here,
/// so both must agree with the whole-file reader byte for byte (found by `Scripts/fuzz csv`: a
/// quote in `m"l` once opened quoting here, and a lone `\r` ended nothing, so a big file's rejects
/// were named at other rows than a small one's).
struct RecordScan {
    private enum State {
        /// At a cell's first byte (a row's start, or after a comma).
        case cellStart
        /// In an unquoted cell, or in what follows a quoted cell's closing quote.
        case plain
        /// In a quoted cell.
        case quoted
        /// In a quoted cell, just after a quote: a second one is a doubled quote, anything else
        /// ends the quoting.
        case quoteInQuoted
        /// Just after a `\r` that ended a row, at the end of the bytes scanned: whether a `\n`
        /// belongs to it is not known until the next byte.
        case afterCR
    }
    private var state = State.cellStart

    /// How many rows `bytes` hold, whole rows from a row's start: `CSVRows` reads as many.
    static func records(in bytes: ArraySlice<UInt8>) -> Int {
        var scan = RecordScan()
        var count = 0, rest = false
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while let end = scan.firstEnd(in: buffer, from: start) {
                count += 1
                start = end
            }
            rest = start < buffer.count
        }
        // The bytes after the last end are a row too: one without a line break, or one ended by a `\r` at the very end.
        return count + (rest ? 1 : 0)
    }

    /// Just after the last (or, with `firstOnly`, the first) row end in `bytes` scanned from
    /// `start`, the state kept between calls: the next call goes on from where this one stopped
    /// (`bytes` grown, not changed). A `\r` that is the last byte ends no row yet: its `\n` may come.
    mutating func lastEnd(in bytes: [UInt8], from start: Int, firstOnly: Bool) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            if firstOnly { return firstEnd(in: buffer, from: start) }
            var last: Int?
            var from = start
            while let end = firstEnd(in: buffer, from: from) {
                last = end
                from = end
            }
            return last
        }
    }

    /// Just after the first row end from `start`, or nil (all of `bytes` scanned).
    private mutating func firstEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i < bytes.count {
            let byte = bytes[i]
            switch state {
            case .afterCR:
                state = .cellStart
                if byte == 0x0A { return i + 1 }
                return i
            case .quoted:
                if byte == 0x22 { state = .quoteInQuoted }
            case .quoteInQuoted where byte == 0x22:
                state = .quoted
            case .cellStart where byte == 0x22:
                state = .quoted
            case .cellStart, .plain, .quoteInQuoted:
                switch byte {
                case 0x2C: state = .cellStart
                case 0x0A:
                    state = .cellStart
                    return i + 1
                case 0x0D:
                    guard i + 1 < bytes.count else {
                        state = .afterCR
                        return nil
                    }
                    state = .cellStart
                    return bytes[i + 1] == 0x0A ? i + 2 : i + 1
                default: state = .plain
                }
            }
            i += 1
        }
        return nil
    }
}

import Foundation

/// The rows of CSV text, as cells (RFC 4180: comma-separated, a cell in double quotes may
/// hold commas, line breaks and doubled quotes; a row ends at `\n`, `\r\n` or `\r`).
///
/// Written by hand, byte by byte, rather than with CSV.swift (the tests keep it as a witness:
/// both read every real sample file to the same cells): CSV.swift builds each cell one
/// Unicode scalar at a time, 5.5 µs a ComCat row, 2.4 s of CPU for the 440k-event catalog
/// (more than the rest of its reading together). The delimiters are ASCII, and no byte of a
/// multi-byte UTF-8 sequence is, so cutting the bytes is cutting the text (and the text is
/// not made a `String` whole first, only its cells).
///
/// Read as CSV.swift reads (as `ComCatCSV` used it: no trimming): an empty line is one empty
/// cell; a quote inside an unquoted cell is a character like any other; a quoted cell left open
/// at the end of the text ends there. Text between a closing quote and the cell's end (which
/// no catalog writes) is kept, as Python's `csv` module keeps it, where CSV.swift took the
/// quote for a character, dropped the next one and read on as if the quotes were still open.
struct CSVRows {
    /// Cells read of one row, at most: a ComCat row has 22, and a row of millions (a file of
    /// commas) must not become millions of strings. The rest are counted, not read.
    static let maxCells = 1_000

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var quoted: [UInt8] = []
    /// False while the cells past `maxCells` are skipped: they are scanned, not made strings.
    private var building = true

    /// Rows of `bytes`, UTF-8 text.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Calls `body` with the cells of every row of `text`, UTF-8, in order (the first `maxCells`
    /// of a row), and how many cells the row has. A cell's bytes that are not UTF-8 read as
    /// U+FFFD, as they would in a `String` made of the whole text.
    static func forEach(in text: some ContiguousBytes, _ body: (_ cells: [String], _ cellCount: Int) throws -> Void) rethrows {
        try text.withUnsafeBytes { raw in
            var rows = CSVRows(raw.bindMemory(to: UInt8.self))
            var cells: [String] = []
            while let count = rows.next(into: &cells) { try body(cells, count) }
        }
    }

    /// Replaces `cells` with the next row's first `maxCells`; returns how many cells the row
    /// has, nil at the end of the text.
    mutating func next(into cells: inout [String]) -> Int? {
        cells.removeAll(keepingCapacity: true)
        guard position < bytes.count else { return nil }
        var count = 0
        defer { building = true }
        while true {
            building = count < Self.maxCells
            let (cell, rowEnds) = position < bytes.count && bytes[position] == Self.quote ? quotedCell() : plainCell()
            if building { cells.append(cell) }
            count += 1
            if rowEnds { return count }
        }
    }

    private static let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    /// The cell from `position` to a comma (`rowEnds` false) or a line break or the end.
    private mutating func plainCell() -> (String, rowEnds: Bool) {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == Self.comma {
                defer { position += 1 }
                return (text(start..<position), false)
            }
            if byte == Self.lf || byte == Self.cr {
                defer { skipLineBreak() }
                return (text(start..<position), true)
            }
            position += 1
        }
        return (text(start..<position), true)
    }

    /// The cell that opens with a quote at `position`.
    private mutating func quotedCell() -> (String, rowEnds: Bool) {
        position += 1
        quoted.removeAll(keepingCapacity: true)
        var start = position  // of the bytes not yet copied into `quoted`
        while position < bytes.count {
            guard bytes[position] == Self.quote else { position += 1; continue }
            if building { quoted.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position])) }
            position += 1
            if position < bytes.count && bytes[position] == Self.quote {
                if building { quoted.append(Self.quote) }  // a doubled quote
                position += 1
                start = position
                continue
            }
            // Closed: what follows up to the cell's end is kept as it is.
            let (rest, rowEnds) = plainCell()
            return (building ? String(decoding: quoted, as: UTF8.self) + rest : "", rowEnds)
        }
        guard building else { return ("", true) }
        quoted.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        return (String(decoding: quoted, as: UTF8.self), true)
    }

    /// Moves past the `\n`, `\r\n` or `\r` at `position`.
    private mutating func skipLineBreak() {
        if bytes[position] == Self.cr && position + 1 < bytes.count && bytes[position + 1] == Self.lf { position += 1 }
        position += 1
    }

    private func text(_ range: Range<Int>) -> String {
        guard building else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

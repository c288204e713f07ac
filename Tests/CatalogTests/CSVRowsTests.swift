import CSV
import Foundation
@testable import QuakeCatalog
import QuakeCommon
import Testing
import TestSupport

/// The hand-written CSV reader (`CSVRows`) against CSV.swift, the library it replaced in the
/// indexer's path: the same cells for every row of every real CSV sample, and for the corner
/// cases of the format.
@Suite struct CSVRowsTests {
    @Test(arguments: [
        TestData.usgs("query-m6-1973-2023.csv.gz"),
        TestData.usgs("query-m4-1921-2021.csv.gz"),
        TestData.usgs("feed-2.5_month-2019-07.csv.gz"),
        TestData.history("all_day-versions-2024-10.csv.gz"),
    ])
    func readsRealFilesAsCSVSwiftDoes(file: URL) throws {
        let text = String(decoding: try Gzip.decompressIfNeeded(try Data(contentsOf: file)), as: UTF8.self)
        let ours = Self.rows(text)
        let witness = try Self.witnessRows(text)
        #expect(ours.count == witness.count)
        #expect(ours.count > 1_000, "\(file.lastPathComponent): \(ours.count) rows")
        let quoted = ours.filter { $0.contains { $0.contains(",") } }.count
        #expect(quoted > 0, "\(file.lastPathComponent) has places with commas in quotes")
        for (index, (row, expected)) in zip(ours, witness).enumerated() where row != expected {
            Issue.record("\(file.lastPathComponent) row \(index + 1): \(row) != \(expected)")
            break
        }
    }

    @Test(arguments: [
        "a,b,c\n1,2,3\n",
        "a,b\r\n1,2\r\n",
        "a,b\r1,2\r",
        "a,b\n1,2",
        "a,b,\n1,,\n,,\n",
        "a,b,",
        "a\n\n\nb\n",
        "\n",
        "\"x, y\",\"say \"\"hi\"\"\",z\n",
        "\"line\nbreak\",2\n\"cr\r\nlf\",3\n",
        "\"\",\"\"\n",
        "\"open to the end,1\n2",
        "in\"side,\"q\"\n",
        "\"q\"\r\n\"r\"\r\"s\"",
        "é,ü\n日本,\"ñ,ö\"\n",
    ])
    func readsCornerCasesAsCSVSwiftDoes(text: String) throws {
        #expect(Self.rows(text) == (try Self.witnessRows(text)))
    }

    /// Where a file read in pieces is cut (`RecordScan`) is where `CSVRows` ends a row, and the
    /// rows it counts are the rows `CSVRows` reads: the rows of the text before a cut and after it
    /// are the rows of the whole, however the bytes arrive (the scan goes on from where it stopped
    /// as the buffer grows, as `CatalogStream` fills it). Found by `Scripts/fuzz csv`: a quote
    /// inside an unquoted cell once opened quoting there, and a lone `\r` ended no row.
    @Test(arguments: [
        "a,b,c\n1,2,3\n", "a,b\r\n1,2\r\n", "a,b\r1,2\r", "a,b\r\r\n\r1\n\r", "a\n\n\nb\n", "\n", "\r", "",
        "\"line\nbreak\",2\n\"cr\r\nlf\",3\r", "\"open to the end,1\n2", "in\"side,\"q\"\n", "m\"l,2\n3,4\n\"5\n",
        "\"q\"\r\n\"r\"\r\"s\"", "\"ab\"c\"d\ne,f\n", "\"x\"\"\n\"\"y\"\r\nz", "a,\"b\"\r\"c\r\"\r\n",
    ])
    func piecesAreCutWhereRowsEnd(text: String) {
        let bytes = Array(text.utf8)
        let whole = Self.rows(text)
        #expect(RecordScan.records(in: bytes[...]) == whole.count, "\(text.debugDescription)")
        var wholeScan = RecordScan()
        let lastEnd = wholeScan.lastEnd(in: bytes, from: 0, firstOnly: false)
        for arrived in 0...bytes.count {
            var scan = RecordScan()
            let early = scan.lastEnd(in: Array(bytes[..<arrived]), from: 0, firstOnly: false)
            let late = scan.lastEnd(in: bytes, from: arrived, firstOnly: false)
            #expect((late ?? early) == lastEnd, "\(text.debugDescription), \(arrived) bytes first")
            guard let cut = early else { continue }
            let before = Self.rows(String(decoding: bytes[..<cut], as: UTF8.self)), after = Self.rows(String(decoding: bytes[cut...], as: UTF8.self))
            #expect(before + after == whole, "\(text.debugDescription) cut at \(cut)")
            #expect(RecordScan.records(in: bytes[..<cut]) == before.count, "\(text.debugDescription) cut at \(cut)")
        }
    }

    /// The one place the two differ, on text no catalog writes: after a closing quote, CSV.swift
    /// drops the next character; `CSVRows` keeps what follows up to the cell's end.
    @Test func keepsTextAfterAClosingQuote() throws {
        #expect(Self.rows("\"ab\"cd,e\n") == [["abcd", "e"]])
        #expect(try Self.witnessRows("\"ab\"cd,e\n") == [["ab\"d,e\n"]])
    }

    /// Bytes that are not UTF-8 (a truncated sequence before a comma, a stray byte inside quotes)
    /// read as they do in a `String` made of the whole text: U+FFFD, the cells around them intact.
    @Test func bytesThatAreNotUTF8ReadAsInAString() throws {
        let bytes: [UInt8] = Array("id,place\n".utf8) + [0x61, 0xE6, 0x97, 0x2C, 0x22, 0x62, 0xFF, 0x2C, 0x63, 0x22, 0x0A]
        var ours: [[String]] = []
        CSVRows.forEach(in: bytes) { cells, _ in ours.append(cells) }
        #expect(ours == [["id", "place"], ["a\u{FFFD}", "b\u{FFFD},c"]])
        #expect(try Self.witnessRows(String(decoding: bytes, as: UTF8.self)) == ours)
    }

    /// The CSV reader's numbers are read as the JSON reader reads its own (in place): the same
    /// values as Swift's `Double(String)`, bit for bit, for every decimal-looking cell of the real
    /// samples and for the odd ones.
    @Test func numbersReadAsDoubleReadsThem() throws {
        var cells = ["0", "-0", "0.1", "-0.0", "1e5", "1E-3", "+5", ".5", "5.", "007", "123456789012345678",
                     "0.30000000000000004", "1.7976931348623157e308", "1e400", "-1e-400", "4.9e-324", "9007199254740993",
                     "-", "+", ".", "1-2", "--1", "1..2", "e5", "1e", "1e+", "12.345.6"]
        for file in [TestData.usgs("query-m6-1973-2023.csv.gz"), TestData.usgs("feed-2.5_month-2019-07.csv.gz")] {
            let text = try Gzip.decompressIfNeeded(try Data(contentsOf: file))
            CSVRows.forEach(in: text) { row, _ in cells += row.filter { !$0.isEmpty && $0.utf8.allSatisfy { Self.decimalBytes.contains($0) } } }
        }
        #expect(cells.count > 50_000)
        for cell in cells {
            var bytes = cell
            let ours = bytes.withUTF8(JSONParser.number(in:))
            #expect(ours?.bitPattern == Double(cell)?.bitPattern, "\(cell): \(String(describing: ours)) against \(String(describing: Double(cell)))")
        }
    }

    private static let decimalBytes = Set(Array("0123456789.-+eE".utf8))

    @Test func emptyTextHasNoRows() {
        #expect(Self.rows("").isEmpty)
    }

    private static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        CSVRows.forEach(in: Array(text.utf8)) { cells, _ in rows.append(cells) }
        return rows
    }

    private static func witnessRows(_ text: String) throws -> [[String]] {
        let reader = try CSVReader(string: text, hasHeaderRow: false)
        var rows: [[String]] = []
        while let row = reader.next() { rows.append(row) }
        if let error = reader.error { throw error }
        return rows
    }

    /// A row of commas is counted, not read: at most `maxCells` strings, whatever its length.
    @Test func aRowOfAMillionCellsGivesAThousandAndItsCount() {
        var rows: [(cells: [String], count: Int)] = []
        CSVRows.forEach(in: Array(("a,b\n" + String(repeating: ",\"x\"\"y\"", count: 1_000_000) + "\nc,d\n").utf8)) { rows.append(($0, $1)) }
        #expect(rows.map(\.count) == [2, 1_000_001, 2])
        #expect(rows[1].cells.count == CSVRows.maxCells && rows[1].cells[1] == "x\"y")
        #expect(rows[2].cells == ["c", "d"], "the row after is read as it is")
    }
}

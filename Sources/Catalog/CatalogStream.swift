import Foundation
import QuakeCommon

/// Reads a big catalog file without holding it: its text (decompressed when gzip) a piece
/// at a time, cut after whole records — CSV rows, the features of a GeoJSON
/// FeatureCollection, the Features of a GeoJSON sequence — and each run of whole records
/// read as `CatalogFile` reads a file. Events come out in chunks as they are read; rejects
/// and problems come back in the page, their positions (row, feature, byte) counted from
/// the start of the file. Memory: a piece and what the caller keeps, whatever the file's size.
public enum CatalogStream {
    /// Reads the file at `url` (named `source` in messages), which may hold or inflate to at
    /// most `maxBytes`, in pieces of about `pieceBytes`, handing its events to `deliver` in
    /// chunks of `chunkSize`. Never throws: what cannot be read is the page's problem.
    public static func read(_ url: URL, source: String, maxBytes: Int = InputFile.defaultMaxBytes, pieceBytes: Int = 8 << 20,
                            chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= maxBytes else {
            return CatalogPage(problem: "\(source): \(Format.bytes(size)), over the \(Format.bytes(maxBytes)) limit for one file (--max-file-size); not read")
        }
        var reader = PieceReader()
        do {
            let stream = try DecompressedStream(url: url, limit: InputFile.inflationLimit(compressedBytes: size, maxBytes: maxBytes),
                                                pieceBytes: pieceBytes)
            try reader.run(stream, source: source, chunkSize: chunkSize, deliver: deliver)
        } catch {
            reader.page.problem = reader.page.problem ?? "\(source): \(error)"
        }
        return reader.page
    }
}

/// The state of one streamed read.
private struct PieceReader {
    var page = CatalogPage()
    /// Decompressed bytes not yet read, starting at byte `base` of the file.
    private var buffer: [UInt8] = []
    private var base = 0
    private var ended = false

    /// Reads more of `stream` into the buffer; false at its end.
    private mutating func fill(_ stream: DecompressedStream) throws -> Bool {
        guard !ended else { return false }
        if try !stream.append(to: &buffer) { ended = true }
        return !ended
    }

    /// Forgets the first `count` bytes of the buffer.
    private mutating func drop(_ count: Int) {
        buffer.removeFirst(count)
        base += count
    }

    mutating func run(_ stream: DecompressedStream, source: String, chunkSize: Int, deliver: ([QuakeEvent]) -> Void) throws {
        while buffer.count < 4096, try fill(stream) {}
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            drop(3)
            base = 0  // positions count from after the mark, as `CatalogFile.read` counts them
        }
        guard let first = buffer.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else {
            page.problem = "\(source): the file is empty"
            return
        }
        if first == 0x7B || first == 0x1E {
            try readGeoJSON(stream, source: source, chunkSize: chunkSize, deliver: deliver)
        } else if buffer.prefix(4096).contains(0) {
            page.problem = "\(source): a binary file, neither GeoJSON nor ComCat CSV"
        } else {
            try readCSV(stream, source: source, chunkSize: chunkSize, deliver: deliver)
        }
    }

    /// Gathers what reading one piece gave; its last events go out now, in file order.
    private mutating func take(_ piece: CatalogPage, deliver: ([QuakeEvent]) -> Void) {
        page.rejects += piece.rejects
        if !piece.events.isEmpty { deliver(piece.events) }
        if page.metadata == nil { page.metadata = piece.metadata }
        if page.problem == nil { page.problem = piece.problem }
    }

    // MARK: CSV

    private mutating func readCSV(_ stream: DecompressedStream, source: String, chunkSize: Int, deliver: ([QuakeEvent]) -> Void) throws {
        // The header line, put before every piece.
        var headerEnd: Int?
        while true {
            var first = RecordScan()
            headerEnd = first.lastEnd(in: buffer, from: 0, firstOnly: true)
            if headerEnd != nil { break }
            if try !fill(stream) { break }
        }
        guard let headerEnd else {
            take(ComCatCSV.read(text: String(decoding: buffer, as: UTF8.self), source: source, rowsBefore: 0, chunkSize: chunkSize,
                                events: deliver).page, deliver: deliver)
            return
        }
        let header = Array(buffer[..<headerEnd])
        drop(headerEnd)
        var scan = RecordScan()
        var rows = 0, scanned = 0
        while true {
            let more = try fill(stream)
            var cut = scan.lastEnd(in: buffer, from: scanned, firstOnly: false)
            scanned = buffer.count
            if !more { cut = buffer.count }
            guard let cut, cut > 0 else {
                if more { continue } else { return }
            }
            let text = String(decoding: header + buffer[..<cut], as: UTF8.self)
            let (piece, lastRow) = ComCatCSV.read(text: text, source: source, rowsBefore: rows, chunkSize: chunkSize, events: deliver)
            take(piece, deliver: deliver)
            rows = lastRow - 1
            if !more || piece.problem != nil { return }
            // The rest starts a record: scanned again from its start.
            drop(cut)
            scanned = 0
            scan = RecordScan()
        }
    }

    // MARK: GeoJSON

    private mutating func readGeoJSON(_ stream: DecompressedStream, source: String, chunkSize: Int, deliver: ([QuakeEvent]) -> Void) throws {
        // A FeatureCollection: the bytes up to its features array's `[` head every piece.
        var layout = CollectionLayout.find(in: buffer)
        while layout == .needMore, try fill(stream) { layout = CollectionLayout.find(in: buffer) }
        var head: [UInt8] = []
        if case .collection(let arrayStart) = layout {
            head = Array(buffer[..<arrayStart])
            drop(arrayStart)
        }
        var scan = ValueScan(inArray: layout.isCollection)
        var features = 0, scanned = 0, pieces = 0
        while true {
            let more = try fill(stream)
            var cut = scan.lastEnd(in: buffer, from: scanned)
            scanned = buffer.count
            var final = !more
            if let end = scan.arrayEnd {
                cut = end
                final = true
            } else if !more {
                cut = buffer.count
            }
            guard let cut, cut > 0 || final else { continue }
            // Blanks after a sequence's last Feature are not another piece.
            if final && pieces > 0 && !layout.isCollection && buffer[..<cut].allSatisfy({ [0x20, 0x0A, 0x0D, 0x09, 0x1E].contains($0) }) { return }
            pieces += 1
            var body = head
            body += buffer[..<cut]
            // A collection's piece closes its array, unless the file ended inside it (then the reader says where).
            if layout.isCollection && (!final || scan.arrayEnd != nil) { body += Array("]}".utf8) }
            var delivered = 0
            let origin = GeoJSONReader.Origin(feature: features, byte: base - head.count)
            let piece = GeoJSONReader.read(body: Data(body), source: source, chunkSize: chunkSize, origin: origin) { events in
                delivered += events.count
                deliver(events)
            }
            features += delivered + piece.events.count + piece.rejects.count
            take(piece, deliver: deliver)
            if final || piece.problem != nil { return }
            // The rest starts after the comma between two features (or the blank after a sequence's Feature): scanned again from there.
            drop(cut < buffer.count && buffer[cut] == 0x2C ? cut + 1 : cut)
            scanned = 0
            scan = ValueScan(inArray: layout.isCollection)
        }
    }
}

/// Where a GeoJSON file's records start.
private enum CollectionLayout: Equatable {
    /// A FeatureCollection whose features array opens at this offset (just after its `[`).
    case collection(arrayStart: Int)
    /// Features one after another (a single Feature, newline-delimited, or a text sequence).
    case sequence
    /// The members before `features` go past the bytes read so far.
    case needMore

    var isCollection: Bool { if case .collection = self { true } else { false } }

    static func find(in buffer: [UInt8]) -> CollectionLayout {
        JSONParser.withParser(Data(buffer)) { parser in
            guard parser.peek() == 0x7B else { return .sequence }
            parser.offset += 1
            do {
                while parser.peek() == 0x22 {
                    let key = try parser.parseString()
                    try parser.expect(0x3A)
                    if key == "features" {
                        guard parser.peek() == 0x5B else { return .sequence }
                        return .collection(arrayStart: parser.offset + 1)
                    }
                    if key == "type", case .string("Feature") = try parser.readScalar(depth: 0) { return .sequence }
                    if key != "type" { try parser.skipValue(depth: 0) }
                    guard parser.peek() == 0x2C else { return .sequence }
                    parser.offset += 1
                }
                return parser.peek() == nil ? .needMore : .sequence
            } catch {
                return parser.peek() == nil ? .needMore : .sequence
            }
        }
    }
}

/// Finds where whole top-level values end: the elements of an array (from just after its `[`)
/// or values one after another, outside strings.
private struct ValueScan {
    let inArray: Bool
    private var depth = 0, inString = false, escaped = false
    /// The offset of the array's `]`, once seen.
    private(set) var arrayEnd: Int?

    init(inArray: Bool) { self.inArray = inArray }

    /// The end of the last whole value in `bytes` scanned from `start` (state kept between
    /// calls): for an array, the offset of the comma after it; else just after its last byte.
    mutating func lastEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var last: Int?
        var i = start
        while i < bytes.count && arrayEnd == nil {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
            } else {
                switch b {
                case 0x22: inString = true
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D:
                    if depth == 0 && inArray {
                        arrayEnd = i
                    } else {
                        depth -= 1
                        if depth == 0 && !inArray { last = i + 1 }
                    }
                case 0x2C where depth == 0 && inArray: last = i
                default: break
                }
            }
            i += 1
        }
        return last
    }
}

/// Finds where CSV records end: line breaks outside double quotes.
private struct RecordScan {
    private var inQuotes = false

    /// Just after the last (or, with `firstOnly`, the first) record end in `bytes` scanned from
    /// `start` (the quote state is kept between calls).
    mutating func lastEnd(in bytes: [UInt8], from start: Int, firstOnly: Bool) -> Int? {
        var last: Int?
        for i in start..<bytes.count {
            let b = bytes[i]
            if b == 0x22 { inQuotes.toggle() } else if b == 0x0A && !inQuotes {
                last = i + 1
                if firstOnly { return last }
            }
        }
        return last
    }
}

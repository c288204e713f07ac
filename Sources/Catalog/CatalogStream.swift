import Foundation
import QuakeCommon

/// Reads a big catalog file without holding it: its text (decompressed when gzip) a piece
/// at a time, cut after whole records — CSV rows, the features of a GeoJSON
/// FeatureCollection, the Features of a GeoJSON sequence — and each run of whole records
/// read as `CatalogFile` reads a file. Events come out in chunks as they are read; rejects
/// and problems come back in the page, their positions (row, feature, byte) counted from
/// the start of the file. Memory: a piece and what the caller keeps, whatever the file's size.
public enum CatalogStream {
    /// The longest record (a CSV row, a GeoJSON feature, what comes before a FeatureCollection's
    /// features) a streamed file may hold: a file that goes on longer without one ends there.
    static let longestRecord = 64 << 20

    /// Reads the file at `url` (named `source` in messages), which may hold or inflate to at
    /// most `maxBytes`, in pieces of about `pieceBytes`, handing its events to `deliver` in
    /// chunks of `chunkSize`. Never throws: what cannot be read is the page's problem.
    public static func read(_ url: URL, source: String, maxBytes: Int = InputFile.defaultMaxBytes, pieceBytes: Int = 2 << 20,
                            chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        let size = InputFile.regularFileSize(of: url) ?? 0
        guard size <= maxBytes else {
            return CatalogPage(problem: InputFile.overLimit(source, size: size, maxBytes: maxBytes))
        }
        var reader = PieceReader()
        do {
            let stream = try DecompressedStream(url: url, limit: InputFile.inflationLimit(compressedBytes: size, maxBytes: maxBytes),
                                                pieceBytes: pieceBytes)
            try reader.run(stream, source: source, chunkSize: chunkSize, deliver: deliver)
            // What follows is read too, not kept (after a FeatureCollection's end, or a problem that
            // ended the reading): gzip damage anywhere is said, as for a file read whole.
            try stream.drain()
            // Damaged gzip ends the text where the damage is; what came before is read, and the
            // damage is the cause to name (before what the cut made of the last record).
            if let damage = stream.damage { reader.page.problem = "\(source): \(damage)" }
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

    /// Throws when the buffer holds more than a record may be, without the end of one.
    private func checkRecordLength() throws {
        guard buffer.count > CatalogStream.longestRecord else { return }
        throw DecompressedStream.Failure(description: "no end of a row or feature in the \(Format.bytes(buffer.count)) from byte \(base) "
            + "(at most \(Format.bytes(CatalogStream.longestRecord)) each); not read further")
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
        switch CatalogFile.kind(first: first, start: buffer.prefix(4096)) {
        case .geoJSON:
            try readGeoJSON(stream, source: source, chunkSize: chunkSize, deliver: deliver)
            // The metadata's status is said over any other problem, as a file read whole says it (found by
            // `Scripts/fuzz geojson`: a piece the file went on after stopped the reading with its broken JSON).
            if let status = GeoJSONReader.statusProblem(page.metadata, source: source) { page.problem = status }
        case .csv: try readCSV(stream, source: source, chunkSize: chunkSize, deliver: deliver)
        case .other(let problem): page.problem = "\(source): \(problem)"
        }
    }

    /// Gathers what reading one piece gave; its events not handed over yet go out now, in file
    /// order, in chunks of `chunkSize`.
    private mutating func take(_ piece: CatalogPage, deliver: ([QuakeEvent]) -> Void, chunkSize: Int = .max) {
        page.rejects += piece.rejects
        for start in stride(from: 0, to: piece.events.count, by: max(1, chunkSize)) {
            deliver(Array(piece.events[start..<(start + min(chunkSize, piece.events.count - start))]))
        }
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
            try checkRecordLength()
            if try !fill(stream) { break }
        }
        guard let headerEnd else {
            take(ComCatCSV.read(text: buffer, source: source, rowsBefore: 0, chunkSize: chunkSize,
                                events: deliver).page, deliver: deliver)
            return
        }
        let header = Array(buffer[..<headerEnd])
        drop(headerEnd)
        // Runs of rows are read ahead on threads of their own, two at a time, while this one hands
        // the events over in order, so that the store's writer does not wait for them.
        var rows = 0, runs = 0
        var ahead: [BackgroundWork<CatalogPage>] = []
        var ended = false
        /// Starts reading runs until two are being read.
        func readAhead() throws {
            while ahead.count < 2 && !ended, let next = try nextRows(stream, header: header) {
                let before = rows
                rows += next.records
                runs += 1
                ended = next.last
                ahead.append(BackgroundWork("catalog-stream.csv") { () -> CatalogPage in
                    var events: [QuakeEvent] = []
                    var page = ComCatCSV.read(text: next.text, source: source, rowsBefore: before, chunkSize: .max) { events += $0 }.page
                    page.events = events
                    return page
                })
            }
        }
        while true {
            try readAhead()
            guard !ahead.isEmpty else {
                // A header line and nothing after it: the header is checked as reading the file whole
                // checks it (found by Scripts/fuzz csv: a wrong header alone was said whole, not in pieces).
                if runs == 0 { take(ComCatCSV.read(text: header, source: source, rowsBefore: 0, chunkSize: chunkSize, events: deliver).page, deliver: deliver) }
                return
            }
            let reading = ahead.removeFirst()
            try readAhead()  // two more while this one is handed over
            let piece = try reading.wait()
            take(piece, deliver: deliver, chunkSize: chunkSize)
            if piece.problem != nil {
                for other in ahead { _ = try? other.wait() }
                return
            }
        }
    }

    /// The next run of whole rows of about a piece, after the header line; nil when none is left.
    private mutating func nextRows(_ stream: DecompressedStream, header: [UInt8]) throws -> (text: [UInt8], records: Int, last: Bool)? {
        var scan = RecordScan()
        var scanned = 0
        while true {
            let more = try fill(stream)
            var cut = scan.lastEnd(in: buffer, from: scanned, firstOnly: false)
            scanned = buffer.count
            if !more { cut = buffer.count }
            guard let cut, cut > 0 else {
                try checkRecordLength()
                if more { continue } else { return nil }
            }
            let records = RecordScan.records(in: buffer[..<cut])
            let text = header + buffer[..<cut]
            drop(cut)
            return (text, records, !more)
        }
    }

    // MARK: GeoJSON

    private mutating func readGeoJSON(_ stream: DecompressedStream, source: String, chunkSize: Int, deliver: ([QuakeEvent]) -> Void) throws {
        // A FeatureCollection: the bytes up to its features array's `[` head every piece.
        // Looked for again only once the buffer has doubled: looking reads from the file's start, and
        // again with every piece would cost the square of a long first member (found by
        // `Scripts/fuzz geojson`: 256 KB of an unclosed string in pieces of 256 bytes took seconds).
        var layout = CollectionLayout.find(in: buffer)
        var looked = buffer.count
        while layout == .needMore {
            let more = try fill(stream)
            guard !more || buffer.count >= 2 * looked || buffer.count > CatalogStream.longestRecord else { continue }
            layout = CollectionLayout.find(in: buffer)
            looked = buffer.count
            if !more { break }
            if layout == .needMore { try checkRecordLength() }
        }
        var head: [UInt8] = []
        if case .collection(let arrayStart) = layout {
            head = Array(buffer[..<arrayStart])
            drop(arrayStart)
        }
        var scan = ValueScan(inArray: layout.isCollection)
        var features = 0, scanned = 0, pieces = 0
        var body: [UInt8] = []
        // A collection's pieces are cut where the reader stops: before the feature the text read so
        // far ends in, which the next piece reads whole. Scanning every byte for the features' ends
        // first took a fifth of the reading thread's time. A feature longer than what is read (no
        // progress), and the last piece, are cut by scanning, as a sequence's pieces always are.
        var readerCuts = layout.isCollection
        while true {
            let more = try fill(stream)
            if readerCuts && more {
                pieces += 1
                var delivered = 0
                let piece = read(piece: head, source: source, chunkSize: chunkSize, body: &body,
                                 origin: GeoJSONReader.Origin(feature: features, byte: base - head.count)) { events in
                    delivered += events.count
                    deliver(events)
                }
                features += delivered + piece.events.count + piece.rejects.count
                take(piece, deliver: deliver)
                guard piece.problem == nil else { return }
                guard let unread = piece.unread else {  // the end of the features
                    if let rest = piece.rest { try readRest(stream, head: head, from: rest - head.count, source: source, body: &body) }
                    return
                }
                if unread > head.count { drop(unread - head.count) } else { readerCuts = false }
                continue
            }
            var cut = scan.lastEnd(in: buffer, from: scanned)
            scanned = buffer.count
            var final = !more
            if let end = scan.arrayEnd {
                cut = end
                final = true
            } else if !more {
                cut = buffer.count
            }
            guard let cut, cut > 0 || final else {
                try checkRecordLength()
                continue
            }
            // Blanks after a sequence's last Feature are not another piece.
            if final && pieces > 0 && !layout.isCollection && buffer[..<cut].allSatisfy({ [0x20, 0x0A, 0x0D, 0x09, 0x1E].contains($0) }) { return }
            pieces += 1
            var delivered = 0
            // A collection's piece closes its array, unless the file ended inside it (then the reader says where).
            let piece = read(piece: head, cut: cut, closed: layout.isCollection && (!final || scan.arrayEnd != nil),
                             continuing: !layout.isCollection && pieces > 1, goesOn: !final,
                             source: source, chunkSize: chunkSize, body: &body,
                             origin: GeoJSONReader.Origin(feature: features, byte: base - head.count)) { events in
                delivered += events.count
                deliver(events)
            }
            features += delivered + piece.events.count + piece.rejects.count
            take(piece, deliver: deliver)
            if let end = scan.arrayEnd, piece.problem == nil { try readRest(stream, head: head, from: end, source: source, body: &body) }
            if final || piece.problem != nil { return }
            // The rest starts after the comma between two features (or the line break after a sequence's Feature: a
            // comma that starts the next line is its own, a broken record): scanned again from there.
            drop(layout.isCollection && cut < buffer.count && buffer[cut] == 0x2C ? cut + 1 : cut)
            scanned = 0
            scan = ValueScan(inArray: layout.isCollection)
        }
    }
}

extension PieceReader {
    /// Reads what follows a FeatureCollection's features array, whose `]` is at `arrayEnd` of the
    /// buffer, as `GeoJSONReader` reads it in a whole file: the members after `features` (with
    /// `head`, the members before), to the document's `}`, then blanks only to the end of the file.
    /// Anything else there (another document, garbage) is the page's problem.
    fileprivate mutating func readRest(_ stream: DecompressedStream, head: [UInt8], from arrayEnd: Int, source: String,
                                       body: inout [UInt8]) throws {
        drop(arrayEnd)
        // The `}` that closes the document is, to a scan from just after the `]`, the end of an array.
        var scan = ValueScan(inArray: true, closer: 0x7D)
        var scanned = 1
        while true {
            _ = scan.lastEnd(in: buffer, from: scanned)
            scanned = buffer.count
            if scan.arrayEnd != nil { break }
            try checkRecordLength()
            if try !fill(stream) { break }
        }
        let end = scan.arrayEnd.map { $0 + 1 } ?? buffer.count
        let piece = read(piece: head, cut: end, source: source, chunkSize: .max, body: &body,
                         origin: GeoJSONReader.Origin(feature: 0, byte: base - head.count)) { _ in }
        take(piece) { _ in }
        guard piece.problem == nil else { return }
        drop(end)
        while true {
            if let other = buffer.firstIndex(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                page.problem = GeoJSONReader.trailingContent(atByte: base + other, source: source)
                return
            }
            drop(buffer.count)
            if try !fill(stream) { return }
        }
    }

    /// Reads `head` and the buffer's first `cut` bytes (all of them when nil: a piece of a
    /// collection the reader cuts, `GeoJSONReader.read(body:…partial:)`), and `]}` when `closed`;
    /// a piece the file `goesOn` after ends at a record's end (a sequence's) or an element's (a collection's).
    /// The piece is put together in `body`, kept for the whole file (a new buffer each time cost
    /// a fresh mapping and its page faults), and read in place.
    fileprivate func read(piece head: [UInt8], cut: Int? = nil, closed: Bool = false, continuing: Bool = false, goesOn: Bool = false,
                          source: String, chunkSize: Int, body: inout [UInt8], origin: GeoJSONReader.Origin,
                          deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        body.removeAll(keepingCapacity: true)
        body.append(contentsOf: head)
        body.append(contentsOf: buffer[..<(cut ?? buffer.count)])
        if closed { body.append(contentsOf: Array("]}".utf8)) }
        return body.withUnsafeMutableBytes { bytes in
            let text = bytes.baseAddress.map { Data(bytesNoCopy: $0, count: bytes.count, deallocator: .none) } ?? Data()
            return GeoJSONReader.read(body: text, source: source, chunkSize: chunkSize, origin: origin, continuing: continuing,
                                      partial: cut == nil, goesOn: goesOn, events: deliver)
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
                    // The bytes read so far may end just after a member: more may hold its comma.
                    guard parser.peek() == 0x2C else { return parser.peek() == nil ? .needMore : .sequence }
                    parser.offset += 1
                }
                return parser.peek() == nil ? .needMore : .sequence
            } catch {
                return parser.peek() == nil ? .needMore : .sequence
            }
        }
    }
}

import Foundation
import QuakeCommon

/// Reads FDSN / ComCat GeoJSON: a FeatureCollection (a query answer or a feed),
/// a single Feature (an `eventid` answer), or a sequence of Features, one per line
/// (newline-delimited GeoJSON) or each after a record separator (RFC 8142 GeoJSON
/// text sequences).
///
/// Each feature is validated on its own: one bad feature becomes a `Reject` and
/// the rest of the page is still read. A syntax error inside a feature skips that
/// feature by bracket matching; a page cut short keeps the features before the cut.
/// Anything but blanks after a FeatureCollection (a second document, garbage) is the
/// page's problem, the features before it kept.
public enum GeoJSONReader {
    /// Reads `data` (gzip or plain). `source` names it in messages.
    public static func read(_ data: Data, source: String) -> CatalogPage {
        read(data, source: source, chunkSize: .max) { _ in }
    }

    /// Reads `data` like `read(_:source:)`, but hands the events of a FeatureCollection over
    /// as they are read, in document order, in chunks of `chunkSize` (so that a consumer can
    /// work on them while the rest is read, and a large page is never whole in memory as
    /// events). The page returned holds the events after the last full chunk, and the
    /// rejects, the metadata and the problem, if any (the events handed over stand even when
    /// the document turns out damaged or a service error, as they would in `read(_:source:)`).
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        let body: Data
        do {
            body = try Gzip.decompressIfNeeded(data)
        } catch {
            return CatalogPage(problem: "\(source): \(error)")
        }
        return read(body: body, source: source, chunkSize: chunkSize, origin: Origin(), events: deliver)
    }

    /// Where a piece of a bigger file starts: its first feature is number `feature` of the
    /// file, and its byte 0 is byte `byte` of the file (negative when the piece starts with
    /// bytes of its own). Positions in rejects and problems count from the file's start.
    struct Origin {
        var feature = 0
        var byte = 0
    }

    /// Reads `body` (plain), a piece of a file starting at `origin` (see `CatalogStream`).
    /// A later piece of a sequence of Features (`continuing`) is read as records one after
    /// another, whatever it starts with: a broken record at its start is a reject, not a
    /// document that is not JSON. A piece of a FeatureCollection that the file goes on after
    /// (`partial`) is read up to the feature its text ends in or at: that feature is left for
    /// the next piece (`CatalogPage.unread` says where it starts), and once the features array
    /// ends, the rest of the document is not read. A piece of a sequence cut at a record's end
    /// that the file goes on after (`goesOn`) has no last record to be truncated: a broken record
    /// reaching its end is rejected as broken, as the record before a separator is. Neither kind of
    /// piece says the status of the service's metadata: the piece that ends the file does.
    static func read(body: Data, source: String, chunkSize: Int, origin: Origin, continuing: Bool = false, partial: Bool = false,
                     goesOn: Bool = false, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        withoutActuallyEscaping(deliver) { deliver in
            JSONParser.withParser(body) { parser in
                parser.reportedBase = origin.byte
                let chunk = Chunking(size: Swift.max(chunkSize, 1), deliver: deliver, origin: origin, partial: partial, goesOn: goesOn)
                guard continuing else { return readDocument(&parser, source: source, chunk: chunk) }
                var page = CatalogPage()
                readSequence(&parser, into: &page, source: source, chunk: chunk)
                return page
            }
        }
    }

    /// Where read events go: into the page, handed over each time `size` of them are there.
    private struct Chunking {
        let size: Int
        let deliver: ([QuakeEvent]) -> Void
        let origin: Origin
        /// The text is a piece of a FeatureCollection that goes on after it (see `read(body:…)`).
        let partial: Bool
        /// The text is a piece (of a sequence, or a FeatureCollection's closed after whole features)
        /// that the file goes on after (see `read(body:…)`).
        let goesOn: Bool

        /// "feature N (byte B)" of the file.
        func position(_ index: Int, byte: Int) -> String { "feature \(origin.feature + index) (byte \(origin.byte + byte))" }
        func feature(_ index: Int) -> Int { origin.feature + index }
        func byte(_ offset: Int) -> Int { origin.byte + offset }

        /// The problem of a file that ends before feature `index` of the piece (after the one before
        /// it, or where the first would start), at byte `offset`.
        func truncated(before index: Int, at offset: Int, source: String) -> String {
            let first = feature(index) == 0
            return "\(source): truncated \(first ? "before the first feature" : "after feature \(feature(index - 1))") at byte \(byte(offset))"
        }

        /// The problem of a file that ends inside feature `index` of the piece, at byte `offset`.
        func truncated(inside index: Int, at offset: Int, source: String) -> String {
            let before = feature(index)
            return "\(source): truncated inside feature \(before) at byte \(byte(offset)); "
                + "\(Format.count(before, "feature")) before it \(before == 1 ? "was" : "were") read"
        }

        func flushIfFull(_ page: inout CatalogPage) {
            guard page.events.count >= size else { return }
            deliver(page.events)
            page.events.removeAll(keepingCapacity: true)
        }
    }

    /// Reads a document (`readMembers`); a page the file does not go on after says the status of
    /// its metadata over any other problem, the events read standing.
    private static func readDocument(_ parser: inout JSONParser, source: String, chunk: Chunking) -> CatalogPage {
        var page = readMembers(&parser, source: source, chunk: chunk)
        // A piece the file goes on after does not say it: the events after it stand as they do in
        // a file read whole, and the piece that ends the file says it (found by `Scripts/fuzz geojson`:
        // a collection of status 100 whose first feature was longer than a piece stopped at that piece;
        // and a status said after broken JSON in the members before the features, in pieces only).
        if !chunk.partial && !chunk.goesOn, let status = statusProblem(page.metadata, source: source) { page.problem = status }
        return page
    }

    /// The members of a document: a FeatureCollection's features, a Feature, or Features one after another.
    private static func readMembers(_ parser: inout JSONParser, source: String, chunk: Chunking) -> CatalogPage {
        var page = CatalogPage()
        if parser.peek() == recordSeparator {
            readSequence(&parser, into: &page, source: source, chunk: chunk)
            return page
        }
        guard parser.peek() == 0x7B else {
            page.problem = parser.atEnd ? "\(source): the file is empty" : "\(source): not JSON (\(parser.error("expected '{'").message))"
            return page
        }
        let documentStart = parser.offset
        parser.offset += 1
        var sawFeatures = false
        var isSingleFeature = false
        do {
            if parser.peek() == 0x7D { parser.offset += 1 } else {
                memberLoop: while true {
                    guard parser.peek() == 0x22 else { throw parser.error("expected a member name") }
                    let key = try parser.parseString()
                    try parser.expect(0x3A)
                    switch key {
                    // A Feature's `features` is a foreign member, skipped: the document is read as a Feature (or the
                    // first of a sequence), as `CatalogStream` cuts it (found by `Scripts/fuzz geojson`: a truncated
                    // feature in it kept a reject's text to the end of the file read whole, to a record separator in pieces).
                    case "features" where !isSingleFeature:
                        sawFeatures = true
                        guard try readFeatures(&parser, into: &page, source: source, chunk: chunk) else { break memberLoop }
                        if chunk.partial {
                            page.rest = parser.offset - 1
                            break memberLoop
                        }
                    case "metadata":
                        page.metadata = metadata(from: try parser.parseValue())
                    case "type":
                        if case .string("Feature") = try parser.readScalar(depth: 0) { isSingleFeature = true }
                    default:
                        try parser.skipValue(depth: 0)
                    }
                    guard let next = parser.peek() else { throw parser.error("unterminated object") }
                    parser.offset += 1
                    if next == 0x7D { break }
                    guard next == 0x2C else { parser.offset -= 1; throw parser.error("expected ',' or '}'") }
                }
            }
        } catch let error as JSONParser.SyntaxError {
            page.problem = "\(source): broken JSON: \(error.message)"
            if !sawFeatures && !isSingleFeature { return page }
        } catch {
            page.problem = "\(source): \(error)"
            return page
        }
        // A Feature something follows is the first record of a sequence; so is a broken document that
        // said it is a Feature (a file of Features one per line whose first line was broken once lost
        // every line after it): rejected to its end, the records after it read, as `CatalogStream`
        // reads its first piece. `metadata` is a FeatureCollection's member: a Feature's is foreign,
        // and says nothing of the file.
        let brokenFeature = isSingleFeature && !sawFeatures && page.problem != nil
        if brokenFeature || (isSingleFeature && page.problem == nil) {
            let more = parser.peek() != nil
            page.problem = nil
            page.metadata = nil
            parser.offset = documentStart
            if brokenFeature || more {
                readSequence(&parser, into: &page, source: source, chunk: chunk)
            } else {
                readSingleFeature(&parser, into: &page, source: source, chunk: chunk)
            }
        } else if !sawFeatures && page.problem == nil && page.metadata?.status.map({ $0 == 200 }) != false {
            page.problem = "\(source): not a GeoJSON FeatureCollection or Feature (no \"features\" member)"
        } else if page.problem == nil && !chunk.partial && parser.peek() != nil {
            page.problem = trailingContent(atByte: parser.reportedBase + parser.offset, source: source)
        }
        return page
    }

    /// The problem of a page whose metadata says the service answered other than 200: said over any
    /// other problem of the page, the events read standing.
    static func statusProblem(_ metadata: PageMetadata?, source: String) -> String? {
        guard let metadata, let status = metadata.status, status != 200 else { return nil }
        return "\(source): the service answered status \(status): \(metadata.error ?? metadata.title ?? "no message")"
    }

    /// The problem of a document that something other than blanks follows, from byte `byte` of
    /// the file on: another document, or garbage (read as nothing, what it holds would be lost
    /// unsaid). The events of the document stand.
    static func trailingContent(atByte byte: Int, source: String) -> String {
        "\(source): unexpected content after the GeoJSON document at byte \(byte)"
    }

    /// Reads the features array. Returns false when the page ends inside it (truncated).
    private static func readFeatures(_ parser: inout JSONParser, into page: inout CatalogPage, source: String,
                                     chunk: Chunking) throws -> Bool {
        try parser.expect(0x5B)
        if parser.peek() == 0x5D { parser.offset += 1; return true }
        var index = 0
        while true {
            let first = parser.peek()
            let start = parser.offset
            // Blanks to the end, where a feature should start: the page ends between features, no feature is cut.
            guard first != nil else {
                if chunk.partial { page.unread = start; return false }
                page.problem = chunk.truncated(before: index, at: start, source: source)
                return false
            }
            do {
                let result = try FeatureMapping.event(from: &parser)
                let end = parser.offset
                // In a piece, a feature nothing follows yet is read with what follows it, in the next piece.
                if chunk.partial && parser.peek() == nil {
                    page.unread = start
                    return false
                }
                accept(result, position: chunk.position(index, byte: start), raw: { parser.text(start..<end) }, into: &page)
                chunk.flushIfFull(&page)
            } catch let error as JSONParser.SyntaxError {
                let recovered = parser.skipElement(from: start)
                let position = chunk.position(index, byte: start)
                if !recovered && chunk.partial {
                    page.unread = start
                    return false
                }
                if !recovered {
                    page.rejects.append(Reject(position: position, reason: "page ends inside this feature (truncated): \(error.message)",
                                               raw: parser.text(start..<parser.offset)))
                    page.problem = chunk.truncated(inside: index, at: parser.offset, source: source)
                    return false
                }
                page.rejects.append(Reject(position: position, reason: "broken JSON: \(error.message)", raw: parser.text(start..<parser.offset)))
            }
            index += 1
            guard let next = parser.peek() else {
                page.problem = chunk.truncated(before: index, at: parser.offset, source: source)
                return false
            }
            parser.offset += 1
            if next == 0x5D { return true }
            guard next == 0x2C else { parser.offset -= 1; throw parser.error("expected ',' or ']' between features") }
        }
    }

    /// RFC 8142's record separator, before each text of a GeoJSON text sequence.
    private static let recordSeparator: UInt8 = 0x1E

    /// Reads Features one after another, separated by blanks, newlines or record separators,
    /// to the end. A broken one is a reject, and reading goes on at the next record: after the
    /// first line break outside its strings and brackets, or record separator (no JSON text holds
    /// one raw), or, when its brackets never close, on the next line after its start (see
    /// `skipBroken`). Only a broken last record that the end of the file cuts inside its
    /// brackets or a string makes the file damaged (truncated).
    private static func readSequence(_ parser: inout JSONParser, into page: inout CatalogPage, source: String, chunk: Chunking) {
        var index = 0
        while true {
            while parser.peek() == recordSeparator { parser.offset += 1 }
            guard parser.peek() != nil else { return }
            let start = parser.offset
            let position = chunk.position(index, byte: start)
            do {
                let result = try FeatureMapping.event(from: &parser)
                accept(result, position: position, raw: { parser.text(start..<parser.offset) }, into: &page)
                chunk.flushIfFull(&page)
            } catch let error as JSONParser.SyntaxError {
                guard skipBroken(&parser, from: start, goesOn: chunk.goesOn) else {
                    page.rejects.append(Reject(position: position, reason: "the file ends inside this feature (truncated): \(error.message)",
                                               raw: parser.text(start..<parser.offset)))
                    page.problem = chunk.truncated(inside: index, at: parser.offset, source: source)
                    return
                }
                page.rejects.append(Reject(position: position, reason: "broken JSON: \(error.message)", raw: parser.text(start..<parser.offset)))
            } catch {
                page.problem = "\(source): \(error)"
                return
            }
            index += 1
        }
    }

    /// Moves past the broken record starting at `start` of a sequence, to where it ends: the
    /// first line break outside strings and brackets, or record separator, after its start (where
    /// `ValueScan` cuts a big file into pieces: the same place whether the file is read whole or
    /// in pieces). When the text has none, the record is its first line and reading goes on at the
    /// next. False when that line is the last of the text and the text ends inside the record's
    /// brackets or a string (truncated), unless the text is a piece the file `goesOn` after.
    private static func skipBroken(_ parser: inout JSONParser, from start: Int, goesOn: Bool) -> Bool {
        var scan = ValueScan(inArray: false)
        if let end = scan.firstEnd(in: parser.bytes, from: start) {
            parser.offset = end - 1
            return true
        }
        parser.offset = start
        parser.skip(toNext: 0x0A, after: start)
        return !parser.atEnd || goesOn || !scan.isOpen
    }

    private static func readSingleFeature(_ parser: inout JSONParser, into page: inout CatalogPage, source: String, chunk: Chunking) {
        let start = parser.offset
        do {
            let result = try FeatureMapping.event(from: &parser)
            accept(result, position: chunk.position(0, byte: start), raw: { parser.text(start..<parser.offset) }, into: &page)
        } catch {
            page.problem = "\(source): broken JSON: \(error)"
        }
    }

    private static func accept(_ result: Result<QuakeEvent, FeatureMapping.Failure>, position: @autoclosure () -> String, raw: () -> String,
                               into page: inout CatalogPage) {
        switch result {
        case .success(let event): page.events.append(event)
        case .failure(let failure):
            page.rejects.append(Reject(position: position(), reason: failure.reason, raw: raw()))
        }
    }

    private static func metadata(from value: JSON) -> PageMetadata {
        func int(_ key: String) -> Int? { if let n = value[key]?.number, n.isFinite, abs(n) < 9e18 { return Int(n) }; return nil }
        func string(_ key: String) -> String? { if case .string(let s)? = value[key] { return s }; return nil }
        return PageMetadata(generated: int("generated").map(Int64.init), url: string("url"), title: string("title"),
                            status: int("status"), api: string("api"), count: int("count"), limit: int("limit"),
                            offset: int("offset"), error: string("error"))
    }
}

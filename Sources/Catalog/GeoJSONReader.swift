import Foundation
import QuakeCommon

/// Reads FDSN / ComCat GeoJSON: a FeatureCollection (a query answer or a feed)
/// or a single Feature (an `eventid` answer).
///
/// Each feature is validated on its own: one bad feature becomes a `Reject` and
/// the rest of the page is still read. A syntax error inside a feature skips that
/// feature by bracket matching; a page cut short keeps the features before the cut.
public enum GeoJSONReader {
    /// Reads `data` (gzip or plain). `source` names it in messages.
    public static func read(_ data: Data, source: String) -> CatalogPage {
        let body: Data
        do {
            body = try Gzip.decompressIfNeeded(data)
        } catch {
            return CatalogPage(problem: "\(source): \(error)")
        }
        return JSONParser.withParser(body) { parser in readDocument(&parser, source: source) }
    }

    private static func readDocument(_ parser: inout JSONParser, source: String) -> CatalogPage {
        var page = CatalogPage()
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
                    case "features":
                        sawFeatures = true
                        if try !readFeatures(&parser, into: &page, source: source) { break memberLoop }
                    case "metadata":
                        page.metadata = metadata(from: try parser.parseValue())
                    case "type":
                        if case .string("Feature") = try parser.parseValue() { isSingleFeature = true }
                    default:
                        _ = try parser.parseValue()
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
        if isSingleFeature && page.problem == nil {
            parser.offset = documentStart
            readSingleFeature(&parser, into: &page)
        } else if !sawFeatures && page.problem == nil && page.metadata?.status.map({ $0 == 200 }) != false {
            page.problem = "\(source): not a GeoJSON FeatureCollection or Feature (no \"features\" member)"
        }
        if let metadata = page.metadata, let status = metadata.status, status != 200 {
            page.problem = "\(source): the service answered status \(status): \(metadata.error ?? metadata.title ?? "no message")"
        }
        return page
    }

    /// Reads the features array. Returns false when the page ends inside it (truncated).
    private static func readFeatures(_ parser: inout JSONParser, into page: inout CatalogPage, source: String) throws -> Bool {
        try parser.expect(0x5B)
        if parser.peek() == 0x5D { parser.offset += 1; return true }
        var index = 0
        while true {
            _ = parser.peek()
            let start = parser.offset
            do {
                let value = try parser.parseValue()
                accept(value, index: index, raw: { parser.text(start..<parser.offset) }, byte: start, into: &page)
            } catch let error as JSONParser.SyntaxError {
                let recovered = parser.skipElement(from: start)
                let position = "feature \(index) (byte \(start))"
                if !recovered {
                    page.rejects.append(Reject(position: position, reason: "page ends inside this feature (truncated): \(error.message)",
                                               raw: parser.text(start..<parser.offset)))
                    page.problem = "\(source): truncated inside feature \(index) at byte \(parser.offset); \(index) features before it were read"
                    return false
                }
                page.rejects.append(Reject(position: position, reason: "broken JSON: \(error.message)", raw: parser.text(start..<parser.offset)))
            }
            index += 1
            guard let next = parser.peek() else {
                page.problem = "\(source): truncated after feature \(index - 1) at byte \(parser.offset)"
                return false
            }
            parser.offset += 1
            if next == 0x5D { return true }
            guard next == 0x2C else { parser.offset -= 1; throw parser.error("expected ',' or ']' between features") }
        }
    }

    private static func readSingleFeature(_ parser: inout JSONParser, into page: inout CatalogPage) {
        let start = parser.offset
        do {
            let value = try parser.parseValue()
            accept(value, index: 0, raw: { parser.text(start..<parser.offset) }, byte: start, into: &page)
        } catch {
            page.problem = "broken JSON: \(error)"
        }
    }

    private static func accept(_ value: JSONValue, index: Int, raw: () -> String, byte: Int, into page: inout CatalogPage) {
        switch FeatureMapping.event(from: value) {
        case .success(let event): page.events.append(event)
        case .failure(let failure):
            page.rejects.append(Reject(position: "feature \(index) (byte \(byte))", reason: failure.reason, raw: raw()))
        }
    }

    private static func metadata(from value: JSONValue) -> PageMetadata {
        func int(_ key: String) -> Int? { if case .number(let n)? = value[key], n.isFinite { return Int(n) }; return nil }
        func string(_ key: String) -> String? { if case .string(let s)? = value[key] { return s }; return nil }
        return PageMetadata(generated: int("generated").map(Int64.init), url: string("url"), title: string("title"),
                            status: int("status"), api: string("api"), count: int("count"), limit: int("limit"),
                            offset: int("offset"), error: string("error"))
    }
}

/// Maps one GeoJSON feature onto a `QuakeEvent`, checking every type on the way.
enum FeatureMapping {
    struct Failure: Error { let reason: String }

    /// The summary properties, found by name with one hash look-up (a `switch` over
    /// strings compares them one by one).
    private enum Property: String, CaseIterable {
        case mag, place, time, updated, tz, url, detail, felt, cdi, mmi, alert, status, tsunami, sig, net, code
        case ids, sources, types, nst, dmin, rms, gap, magType, type, title

        static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
    }

    static func event(from feature: JSONValue) -> Result<QuakeEvent, Failure> {
        Result { try map(feature) }.mapError { $0 as? Failure ?? Failure(reason: "\($0)") }
    }

    private static func map(_ feature: JSONValue) throws -> QuakeEvent {
        guard case .object = feature else { throw Failure(reason: "a feature must be a JSON object") }
        guard case .object(let properties)? = feature["properties"] else {
            throw Failure(reason: "feature has no \"properties\" object")
        }
        var event = QuakeEvent(id: "", updated: 0)
        var updated: Int64?
        var ids: String?
        for (key, value) in properties {
            guard let property = Property.byName[key] else { continue }  // products and other detail-only members
            switch property {
            case .mag: event.mag = try double(value, key)
            case .place: event.place = try string(value, key)
            case .time: event.time = try milliseconds(value, key)
            case .updated: updated = try milliseconds(value, key)
            case .tz: event.tz = try int(value, key)
            case .url: event.url = try string(value, key)
            case .detail: event.detail = try string(value, key)
            case .felt: event.felt = try int(value, key)
            case .cdi: event.cdi = try double(value, key)
            case .mmi: event.mmi = try double(value, key)
            case .alert: event.alert = try string(value, key)
            case .status: event.status = try string(value, key)
            case .tsunami: event.tsunami = try int(value, key)
            case .sig: event.sig = try int(value, key)
            case .net: event.net = try string(value, key)
            case .code: event.code = try string(value, key)
            case .ids: ids = try string(value, key)
            case .sources: event.sources = CommaList.parse(try string(value, key))
            case .types: event.types = CommaList.parse(try string(value, key))
            case .nst: event.nst = try int(value, key)
            case .dmin: event.dmin = try double(value, key)
            case .rms: event.rms = try double(value, key)
            case .gap: event.gap = try double(value, key)
            case .magType: event.magType = try string(value, key)
            case .type: event.eventType = try string(value, key)
            case .title: event.title = try string(value, key)
            }
        }
        // The feature id is the preferred id; `ids` lists every id (blank for some deleted events).
        switch feature["id"] {
        case .string(let id)?: event.id = id
        case .number(let n)?: event.id = n.isFinite ? String(Int64(n)) : ""
        default: break
        }
        event.ids = CommaList.parse(ids)
        if event.id.isEmpty, let first = event.ids.first { event.id = first }
        if event.id.isEmpty, let net = event.net, let code = event.code { event.id = net + code }
        if event.id.isEmpty { throw Failure(reason: "missing id") }
        if !event.ids.contains(event.id) { event.ids.insert(event.id, at: 0) }
        guard let updated else { throw Failure(reason: "missing \"updated\" time (versions cannot be ordered)") }
        event.updated = updated
        try readGeometry(feature["geometry"], into: &event)
        if let reason = EventRules.check(&event) { throw Failure(reason: reason) }
        return event
    }

    private static func readGeometry(_ geometry: JSONValue?, into event: inout QuakeEvent) throws {
        guard let geometry, case .object = geometry else {
            if event.isDeleted { return }
            throw Failure(reason: geometry == nil ? "feature has no geometry" : "geometry is null")
        }
        guard case .string("Point")? = geometry["type"] else { throw Failure(reason: "geometry is not a Point") }
        guard case .array(let coordinates)? = geometry["coordinates"], coordinates.count >= 2 else {
            throw Failure(reason: "Point has no [longitude, latitude] coordinates")
        }
        guard case .number(let longitude) = coordinates[0] else { throw Failure(reason: "longitude is not a number (\(describe(coordinates[0])))") }
        guard case .number(let latitude) = coordinates[1] else { throw Failure(reason: "latitude is not a number (\(describe(coordinates[1])))") }
        event.longitude = longitude
        event.latitude = latitude
        if coordinates.count > 2 {
            switch coordinates[2] {
            case .number(let depth): event.depthKm = depth
            case .null: event.depthKm = nil
            default: throw Failure(reason: "depth is not a number (\(describe(coordinates[2])))")
            }
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func string(_ value: JSONValue, _ key: String) throws -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        default: throw Failure(reason: "property \(key) should be a string, not \(describe(value))")
        }
    }

    private static func double(_ value: JSONValue, _ key: String) throws -> Double? {
        switch value {
        case .null: return nil
        case .number(let n): return n
        default: throw Failure(reason: "property \(key) should be a number, not \(describe(value))")
        }
    }

    private static func int(_ value: JSONValue, _ key: String) throws -> Int? {
        guard let n = try double(value, key) else { return nil }
        guard n.isFinite, n == n.rounded(), abs(n) < 9e15 else {
            throw Failure(reason: "property \(key) should be a whole number, not \(n)")
        }
        return Int(n)
    }

    /// Times are integer milliseconds in GeoJSON; ISO text is accepted too.
    private static func milliseconds(_ value: JSONValue, _ key: String) throws -> Int64? {
        switch value {
        case .null: return nil
        case .number(let n):
            guard n.isFinite, n == n.rounded(), abs(n) < 9e15 else { throw Failure(reason: "property \(key) is not a valid time (\(n))") }
            return Int64(n)
        case .string(let s):
            guard let ms = ISOTime.parse(s) else { throw Failure(reason: "property \(key) is not a valid time (\"\(s.prefix(64))\")") }
            return ms
        default:
            throw Failure(reason: "property \(key) should be a time, not \(describe(value))")
        }
    }
}

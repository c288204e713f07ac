/// Decodes one GeoJSON feature straight from the parser into a `QuakeEvent`,
/// checking every type on the way.
///
/// No tree is built: the members are read as they come (in whatever order the
/// writer put them) into a draft, and the draft is checked once the feature's
/// closing brace has been read, so that a syntax error anywhere in the feature
/// wins over a wrong type (the caller then skips the feature as broken JSON), and
/// the checks run in a fixed order whatever the member order: the properties'
/// types (in document order), the id, `updated`, the geometry, then `EventRules`.
/// Where a member appears twice, the first `properties`, `id` and `geometry`
/// count, and within `properties` the last value of a name.
enum FeatureMapping {
    struct Failure: Error { let reason: String }

    /// Reads the feature at the parser's position. Throws only syntax errors; a feature
    /// that is valid JSON but not a storable event is a `Failure`.
    static func event(from parser: inout JSONParser) throws -> Result<QuakeEvent, Failure> {
        guard parser.peek() == 0x7B else {
            _ = try parser.readScalar(depth: 0)
            return .failure(Failure(reason: "a feature must be a JSON object"))
        }
        var draft = Draft()
        try parser.forEachMember(depth: 0) { parser, name in
            if draft.properties == nil, parser.name(name, is: "properties") {
                let outcome = try readProperties(&parser, into: &draft)
                draft.properties = outcome
            } else if draft.id == nil, parser.name(name, is: "id") {
                draft.id = try parser.readScalar(depth: 1)
            } else if draft.geometry == nil, parser.name(name, is: "geometry") {
                draft.geometry = try readGeometry(&parser)
            } else {
                try parser.skipValue(depth: 1)
            }
        }
        return Result { () throws(Failure) in try draft.finish() }
    }

    /// What a feature's members said, before the checks.
    private struct Draft {
        var event = QuakeEvent(id: "", updated: 0)
        var updated: Int64?
        var ids: String?
        /// `nil` until the `properties` member is read.
        var properties: PropertiesOutcome?
        /// The `id` member.
        var id: JSONScalar?
        /// `properties.id`, where files made for web maps keep the id.
        var propertyID: JSONScalar?
        /// `nil` until the `geometry` member is read.
        var geometry: Geometry?

        /// Checks the draft in the fixed order and completes the event.
        mutating func finish() throws(Failure) -> QuakeEvent {
            switch properties {
            case .wrongProperty(let failure)?: throw failure
            case .read?: break
            case .notAnObject?, nil: throw Failure(reason: "feature has no properties object")
            }
            // The feature id is the preferred id (`properties.id` in files made for web maps);
            // `ids` lists every id (blank for some deleted events).
            event.id = try Self.text(of: id ?? propertyID, named: id != nil ? "id" : "properties.id")
            event.ids = CommaList.parse(ids)
            if event.id.isEmpty, let first = event.ids.first { event.id = first }
            if event.id.isEmpty, let net = event.net, let code = event.code { event.id = net + code }
            if event.id.isEmpty { throw Failure(reason: "missing id") }
            if !event.ids.contains(event.id) { event.ids.insert(event.id, at: 0) }
            // No `updated` (files made for web maps): the oldest possible version, which any
            // version that has one replaces.
            event.updated = updated ?? PlausibleRanges.earliestTime
            try place(geometry)
            if let reason = EventRules.check(&event) { throw Failure(reason: reason) }
            return event
        }

        /// The text of an id member: a string as it is; a number (GeoJSON allows one) written as
        /// the whole number it is (`1e3` is "1000"); `""` when absent or null (the id is then
        /// found elsewhere). A fractional, non-finite or too large number would not name one event
        /// (1.2 and 1.8 would both be "1"), and a boolean, array or object none: a `Failure`.
        private static func text(of value: JSONScalar?, named name: String) throws(Failure) -> String {
            switch value {
            case .string(let id)?: return id
            case .number(let n)?:
                guard n.isFinite, n == n.rounded() else { throw Failure(reason: "\(name) \(n) is not a whole number (a numeric id must be one)") }
                guard abs(n) < 9e15 else { throw Failure(reason: "\(name) \(n) is too large (whole numbers up to 9e15)") }
                return String(Int64(n))
            case .null?, nil: return ""
            case let other?: throw Failure(reason: "\(name) should be a string or a whole number, not \(FeatureMapping.describe(other))")
            }
        }

        private mutating func place(_ geometry: Geometry?) throws(Failure) {
            guard let geometry, case .object(let type, let coordinates) = geometry else {
                if event.isDeleted { return }
                throw Failure(reason: geometry == nil ? "feature has no geometry" : "geometry is null")
            }
            guard case .string("Point")? = type else { throw Failure(reason: "geometry is not a Point") }
            guard let coordinates, coordinates.count >= 2, let longitude = coordinates.first, let latitude = coordinates.second else {
                throw Failure(reason: "Point has no [longitude, latitude] coordinates")
            }
            guard case .number(let x) = longitude else { throw Failure(reason: "longitude is not a number (\(describe(longitude)))") }
            guard case .number(let y) = latitude else { throw Failure(reason: "latitude is not a number (\(describe(latitude)))") }
            event.longitude = x
            event.latitude = y
            switch coordinates.third {
            case .number(let depth)?: event.depthKm = depth
            case .null?: event.depthKm = nil
            case let other?: throw Failure(reason: "depth is not a number (\(describe(other)))")
            case nil: break
            }
        }
    }

    private enum PropertiesOutcome {
        case notAnObject
        /// Read; every known property had the right type.
        case read
        /// The first known property of the wrong type.
        case wrongProperty(Failure)
    }

    /// The `geometry` member: an object with its first `type` and `coordinates`, or something else.
    private enum Geometry {
        case notAnObject
        case object(type: JSONScalar?, coordinates: Coordinates?)
    }

    /// The first three items of a `coordinates` array (the rest are checked and skipped), or `nil`
    /// for each when `coordinates` is not an array.
    private struct Coordinates {
        var count = 0
        var first: JSONScalar?
        var second: JSONScalar?
        var third: JSONScalar?
    }

    private static func readGeometry(_ parser: inout JSONParser) throws -> Geometry {
        guard parser.peek() == 0x7B else {
            _ = try parser.readScalar(depth: 1)
            return .notAnObject
        }
        var type: JSONScalar?
        var coordinates: Coordinates?
        var sawCoordinates = false
        try parser.forEachMember(depth: 1) { parser, name in
            if type == nil, parser.name(name, is: "type") {
                type = try parser.readScalar(depth: 2)
            } else if !sawCoordinates, parser.name(name, is: "coordinates") {
                sawCoordinates = true
                coordinates = try readCoordinates(&parser)
            } else {
                try parser.skipValue(depth: 2)
            }
        }
        return .object(type: type, coordinates: coordinates)
    }

    private static func readCoordinates(_ parser: inout JSONParser) throws -> Coordinates? {
        guard parser.peek() == 0x5B else {
            _ = try parser.readScalar(depth: 2)
            return nil
        }
        var coordinates = Coordinates()
        try parser.forEachElement { parser in
            let item = try parser.readScalar(depth: 3)
            switch coordinates.count {
            case 0: coordinates.first = item
            case 1: coordinates.second = item
            case 2: coordinates.third = item
            default: break
            }
            coordinates.count += 1
        }
        return coordinates
    }

    /// The summary properties, found by their names packed into an integer (see
    /// `JSONParser.packedName`): a few integer comparisons instead of a string hash.
    private enum Property: String, CaseIterable {
        case mag, place, time, updated, tz, url, detail, felt, cdi, mmi, alert, status, tsunami, sig, net, code
        case ids, sources, types, nst, dmin, rms, gap, magType, type, title, id

        /// Every property by packed name, in the order USGS writes them (so the search is short).
        static let byPackedName = allCases.map { (key: JSONParser.packed($0.rawValue)!, property: $0) }

        /// The position of `packed` in `byPackedName` (`properties`), searched from `start` round to
        /// it again: from just after the last property found, a feature in USGS's order finds each
        /// member at the first look (from the start each time, half the list on average: a tenth
        /// of the reading thread's time went to it).
        static func position(of packed: UInt64, in properties: [(key: UInt64, property: Property)], from start: Int) -> Int? {
            var position = start
            for _ in properties.indices {
                if position == properties.count { position = 0 }
                if properties[position].key == packed { return position }
                position += 1
            }
            return nil
        }
    }

    private static func readProperties(_ parser: inout JSONParser, into draft: inout Draft) throws -> PropertiesOutcome {
        guard parser.peek() == 0x7B else {
            _ = try parser.readScalar(depth: 1)
            return .notAnObject
        }
        var failure: Failure?
        let properties = Property.byPackedName
        var next = 0
        try parser.forEachMember(depth: 1) { parser, name in
            // Products and other detail-only members are skipped, and so is everything after a wrong type.
            guard failure == nil, let packed = parser.packedName(name),
                  let position = Property.position(of: packed, in: properties, from: next) else {
                try parser.skipValue(depth: 2)
                return
            }
            next = position + 1
            let property = properties[position].property
            let value = try parser.readScalar(depth: 2)
            do throws(Failure) {
                try set(property, to: value, in: &draft)
            } catch {
                failure = error
            }
        }
        return failure.map(PropertiesOutcome.wrongProperty) ?? .read
    }

    private static func set(_ property: Property, to value: JSONScalar, in draft: inout Draft) throws(Failure) {
        switch property {
        case .mag: draft.event.mag = try double(value, property)
        case .place: draft.event.place = try string(value, property)
        case .time: draft.event.time = try milliseconds(value, property)
        case .updated: draft.updated = try milliseconds(value, property)
        case .tz: draft.event.tz = try int(value, property)
        case .url: draft.event.url = try string(value, property)
        case .detail: draft.event.detail = try string(value, property)
        case .felt: draft.event.felt = try int(value, property)
        case .cdi: draft.event.cdi = try double(value, property)
        case .mmi: draft.event.mmi = try double(value, property)
        case .alert: draft.event.alert = try string(value, property)
        case .status: draft.event.status = try string(value, property)
        case .tsunami: draft.event.tsunami = try int(value, property)
        case .sig: draft.event.sig = try int(value, property)
        case .net: draft.event.net = try string(value, property)
        case .code: draft.event.code = try string(value, property)
        case .ids: draft.ids = try string(value, property)
        case .sources: draft.event.sources = CommaList.parse(try string(value, property))
        case .types: draft.event.types = CommaList.parse(try string(value, property))
        case .nst: draft.event.nst = try int(value, property)
        case .dmin: draft.event.dmin = try double(value, property)
        case .rms: draft.event.rms = try double(value, property)
        case .gap: draft.event.gap = try double(value, property)
        case .magType: draft.event.magType = try string(value, property)
        case .type: draft.event.eventType = try string(value, property)
        case .title: draft.event.title = try string(value, property)
        case .id: draft.propertyID = value
        }
    }

    private static func describe(_ value: JSONScalar) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return "\(b)"
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s.prefix(40))\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func string(_ value: JSONScalar, _ key: Property) throws(Failure) -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        default: throw Failure(reason: "property \(key.rawValue) should be a string, not \(describe(value))")
        }
    }

    private static func double(_ value: JSONScalar, _ key: Property) throws(Failure) -> Double? {
        switch value {
        case .null: return nil
        case .number(let n): return n
        default: throw Failure(reason: "property \(key.rawValue) should be a number, not \(describe(value))")
        }
    }

    private static func int(_ value: JSONScalar, _ key: Property) throws(Failure) -> Int? {
        guard let n = try double(value, key) else { return nil }
        guard n.isFinite, n == n.rounded() else {
            throw Failure(reason: "property \(key.rawValue) should be a whole number, not \(n)")
        }
        // Beyond 2^53 a double no longer holds every whole number (and past 2^63 no Int holds it).
        guard abs(n) < 9e15 else {
            throw Failure(reason: "property \(key.rawValue) \(n) is too large (whole numbers up to 9e15)")
        }
        return Int(n)
    }

    /// Times are integer milliseconds in GeoJSON; ISO text is accepted too.
    private static func milliseconds(_ value: JSONScalar, _ key: Property) throws(Failure) -> Int64? {
        switch value {
        case .null: return nil
        case .number(let n):
            guard n.isFinite, n == n.rounded(), abs(n) < 9e15 else { throw Failure(reason: "property \(key.rawValue) is not a valid time (\(n))") }
            return Int64(n)
        case .string(let s):
            guard let ms = ISOTime.parse(s) else { throw Failure(reason: "property \(key.rawValue) is not a valid time (\"\(s.prefix(64))\")") }
            return ms
        default:
            throw Failure(reason: "property \(key.rawValue) should be a time, not \(describe(value))")
        }
    }
}

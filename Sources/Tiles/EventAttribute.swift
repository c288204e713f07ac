import QuakeCommon

/// A feature attribute a bundle can carry (`--attributes`), named as in the tiles.
public enum EventAttribute: String, CaseIterable, Sendable, Hashable {
    case id, mag, time
    case depthKm = "depth_km"
    case place
    case eventType = "event_type"
    case status, tsunami, alert, sig, minzoom
    case updated
    case magType = "mag_type"
    case felt, cdi, mmi, net, code, nst, dmin, rms, gap, title, url

    /// The attributes of the default set, in tile order.
    public static let defaults: [EventAttribute] = [.id, .mag, .time, .depthKm, .place, .eventType, .status, .tsunami, .alert, .sig, .minzoom]

    /// How values are held in memory and written.
    public enum Kind: Sendable {
        /// Free text (kept in a byte pool).
        case text
        /// Text whose values repeat (kept as codes into a table of the distinct values).
        case category
        /// A floating-point number.
        case real
        /// A whole number.
        case integer
        /// Computed by thinning, not read from the store (`minzoom`).
        case computed
    }

    /// How the attribute's values are held and written.
    public var kind: Kind {
        switch self {
        case .id, .title, .url, .code: return .text
        case .place, .eventType, .status, .alert, .magType, .net: return .category
        case .mag, .depthKm, .cdi, .mmi, .dmin, .rms, .gap: return .real
        case .time, .tsunami, .sig, .updated, .felt, .nst: return .integer
        case .minzoom: return .computed
        }
    }

    /// The column of the store's `events` table it comes from (`nil` for `minzoom`).
    public var storeColumn: String? {
        switch self {
        case .minzoom: return nil
        default: return rawValue
        }
    }

    /// The field type named in MBTiles/PMTiles `vector_layers`.
    public var fieldType: String {
        switch kind {
        case .text, .category: return "String"
        case .real, .integer, .computed: return "Number"
        }
    }

    /// Parses `id,mag,time,...`; throws a usage error naming an unknown attribute.
    public static func parseList(_ text: String) throws -> [EventAttribute] {
        var list: [EventAttribute] = []
        for part in text.split(separator: ",").map({ String($0.trimmingSpaces) }) where !part.isEmpty {
            guard let attribute = EventAttribute(rawValue: part) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw QuakeBakeError("--attributes: unknown attribute `\(part)` (known: \(known))", exitStatus: .usage)
            }
            if !list.contains(attribute) { list.append(attribute) }
        }
        return list
    }
}

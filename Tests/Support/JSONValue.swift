import Foundation

/// Any JSON value, for reading what the witnesses print and the JSON files of a bundle.
public enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let d = try? container.decode(Double.self) { self = .number(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// The number, if this is one.
    public var number: Double? { if case .number(let d) = self { return d }; return nil }
    /// The string, if this is one.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? { if case .object(let o) = self { return o[key] }; return nil }
}

import Foundation
import QuakeCatalog

/// The bundle's own JSON value (`QuakeCatalog.JSON`), decodable too, for reading what the
/// witnesses print and the JSON files of a bundle in the tests. Numbers decode as `.double`,
/// as `JSONParser` reads them, so that `.number(x)` compares equal to what a file holds.
extension JSON: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSON].self) { self = .array(a) }
        else {
            // Members in key order: JSONDecoder does not keep the document's.
            let members = try container.decode([String: JSON].self)
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// The string, if this is one.
    public var string: String? { if case .string(let s) = self { return s }; return nil }
}

import Foundation
import QuakeCatalog

/// The bundle's own JSON value (`QuakeCatalog.JSON`), decodable too, for reading what the
/// witnesses print and the JSON files of a bundle in the tests. Numbers decode as `.double`,
/// as `JSONParser` reads them, so that `.number(x)` compares equal to what a file holds.
///
/// `Decoder` cannot say what a value is, so each kind is tried in turn: strings and numbers, what
/// tiles' and files' properties mostly hold, first. Each wrong guess is a thrown error, and Swift
/// Testing takes a backtrace of every error thrown in a test: guessing `Bool` first made the
/// unwinder a sixth of BundlesTests' CPU.
extension JSON: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let d = try? container.decode(Double.self) { self = .double(d) }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
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

extension JSON {
    /// A whole JSON document, read with Foundation's `JSONSerialization` (an independent reader
    /// of what the bundle writes, with no guessing: see the note on `Decodable` above). Numbers
    /// as `.double`, members in key order, as `init(from:)` gives them.
    public init(reading data: Data) throws {
        self = Self(foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    private init(foundation value: Any) {
        switch value {
        case let number as NSNumber where type(of: number) != NSNumber.self && String(cString: number.objCType) == "c":
            self = .bool(number.boolValue)
        case let number as NSNumber: self = .double(number.doubleValue)
        case let string as String: self = .string(string)
        case let array as [Any]: self = .array(array.map(JSON.init(foundation:)))
        case let object as [String: Any]: self = .object(object.sorted { $0.key < $1.key }.map { ($0.key, JSON(foundation: $0.value)) })
        default: self = .null
        }
    }
}

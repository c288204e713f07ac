import Foundation
import QuakeCatalog

/// A JSON value in an admin request body.
enum AdminValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AdminValue])
    case object([String: AdminValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AdminValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AdminValue].self)) }
    }
}

/// JSON in and out of the admin interface (small bodies, so Foundation's coders are fine here).
enum AdminJSON {
    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder.admin.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses a JSON object body (an empty body is an empty object).
    static func object(_ body: Data) throws(AdminError) -> [String: AdminValue] {
        guard !body.isEmpty else { return [:] }
        guard case .object(let members)? = try? JSONDecoder().decode(AdminValue.self, from: body) else {
            throw AdminError(status: 400, message: "the body must be a JSON object")
        }
        return members
    }

    /// A time given as ms since 1970 (number) or an ISO-8601 string.
    static func time(_ value: AdminValue?, _ name: String) throws(AdminError) -> Int64 {
        switch value {
        case .number(let ms)? where ms.isFinite && abs(ms) < 9e15: return Int64(ms)
        case .string(let text)?: if let ms = ISOTime.parse(text) { return ms }
        default: break
        }
        throw AdminError(status: 400, message: "\(name) must be ms since 1970 or an ISO-8601 time")
    }

    /// An encodable value as the admin answer's body.
    static func encode(_ value: some Encodable) -> Data {
        (try? JSONEncoder.admin.encode(value)) ?? Data("{}".utf8)
    }
}

extension JSONEncoder {
    /// Sorted keys and plain slashes, so admin answers are stable and readable.
    static var admin: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// An admin request that cannot be done: an HTTP status and a message, sent as `{"error": …}`.
struct AdminError: Error, Sendable {
    var status: Int
    var message: String
}

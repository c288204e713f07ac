import Foundation
import QuakeCatalog

/// JSON in and out of the admin interface (small bodies, so Foundation's coders are fine here).
enum AdminJSON {
    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder.admin.encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses a JSON object body (an empty body is an empty object; a repeated member, the last counts).
    static func object(_ body: Data) throws(AdminError) -> [String: JSON] {
        guard !body.isEmpty else { return [:] }
        guard case .object(let members)? = JSON.parse(body) else {
            throw AdminError(status: 400, message: "the body must be a JSON object")
        }
        return Dictionary(members, uniquingKeysWith: { _, last in last })
    }

    /// A time given as ms since 1970 (number) or an ISO-8601 string.
    static func time(_ value: JSON?, _ name: String) throws(AdminError) -> Int64 {
        switch value {
        case .double(let ms)? where ms.isFinite && abs(ms) < 9e15: return Int64(ms)
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

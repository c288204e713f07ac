/// A JSON value, as `JSONParser.parseValue` reads it and as bundles write it.
///
/// Written deterministically: object members keep the order they were given in,
/// numbers print the same way every run (whole numbers without a decimal point,
/// others in Swift's shortest round-trip form), non-finite numbers become null.
/// Foundation's `JSONSerialization` promises neither member order nor number format,
/// and bundles must be byte-identical. The parser reads every number as `.double`.
public indirect enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// A whole number.
    public static func int(_ value: Int) -> JSON { .int(Int64(value)) }

    /// A double, or null when `value` is nil or NaN.
    public static func number(_ value: Double?) -> JSON {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }

    /// The member `key` of an object (the first, if it repeats); nil for anything else.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The value of a number, whole or not; nil for anything else.
    public var number: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.int(let x), .int(let y)): x == y
        case (.double(let x), .double(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Compact text.
    public var text: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Text with two-space indentation, for files people read (manifest).
    public var prettyText: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out + "\n"
    }

    func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += Self.format(d)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                newline(&out, indent, level + 1)
                Self.quote(key, into: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            newline(&out, indent, level)
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: indent, count: level)
    }

    /// A double as JSON (see `JSONText.number`).
    public static func format(_ d: Double) -> String { JSONText.number(d) }

    /// Appends `s` quoted, with `<` escaped for embedding in HTML (see `JSONText.string`).
    public static func quote(_ s: String, into out: inout String) {
        out += JSONText.string(s, escapingHTML: true)
    }
}

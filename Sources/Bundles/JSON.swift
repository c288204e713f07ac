import QuakeCatalog

/// A JSON value written deterministically: object members keep the order they
/// were given in, numbers print the same way every run (whole numbers without a
/// decimal point, others in Swift's shortest round-trip form), non-finite numbers
/// become null. Foundation's `JSONSerialization` promises neither member order
/// nor number format, and bundles must be byte-identical.
indirect enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func int(_ value: Int) -> JSON { .int(Int64(value)) }

    /// A double, or null when `value` is nil or NaN.
    static func number(_ value: Double?) -> JSON {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }

    /// Compact text.
    var text: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Text with two-space indentation, for files people read (manifest).
    var prettyText: String {
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
    static func format(_ d: Double) -> String { JSONText.number(d) }

    /// Appends `s` quoted, with `<` escaped for embedding in HTML (see `JSONText.string`).
    static func quote(_ s: String, into out: inout String) {
        out += JSONText.string(s, escapingHTML: true)
    }
}

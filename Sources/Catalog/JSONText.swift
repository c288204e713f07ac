/// JSON text output the way USGS writes it: members in a fixed order, whole
/// numbers without a decimal point. Foundation's encoders guarantee neither,
/// so these few lines write the text directly.
enum JSONText {
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func string(_ value: String) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func optional(_ value: String?) -> String { value.map(string) ?? "null" }
    static func optional(_ value: Double?) -> String { value.map(number) ?? "null" }
    static func optional(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    static func optional(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
}

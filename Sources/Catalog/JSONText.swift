import QuakeCommon

/// JSON text written directly: members in the order given, whole numbers without a
/// decimal point, the same bytes every run. Foundation's encoders promise neither
/// member order nor number format, and both the USGS-shaped GeoJSON and the
/// byte-reproducible bundles need them.
public enum JSONText {
    /// A number: `3` for whole numbers, else the shortest round-trip form; `null` when not finite.
    public static func number(_ value: Double) -> String {
        value.isFinite ? Format.number(value) : "null"
    }

    /// A quoted, escaped string. `escapingHTML` also writes `<` as `\u003c`, so JSON
    /// embedded in an HTML `<script>` stays inert.
    public static func string(_ value: String, escapingHTML: Bool = false) -> String {
        var out = "\""
        out.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<" where escapingHTML: out += "\\u003c"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func optional(_ value: String?) -> String { value.map { string($0) } ?? "null" }
    static func optional(_ value: Double?) -> String { value.map(number) ?? "null" }
    static func optional(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    static func optional(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
}

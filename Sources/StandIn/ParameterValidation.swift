import QuakeCatalog

/// The service's checks for single parameter values, with its exact messages
/// (usgs/earthquake-event-ws `WebService::validate…`). Each returns the parsed value
/// or throws the 400 the service answers.
enum ParameterValidation {
    /// ISO-8601, UTC unless zoned, kept to one-second precision (ms, truncated to the second).
    static func time(_ name: String, _ value: String) throws(ServiceError) -> Int64 {
        guard let ms = ISOTime.parse(value) else {
            throw .badRequest("Bad \(name) value \"\(value)\". Valid values are ISO-8601 timestamps.")
        }
        let (seconds, remainder) = (ms / 1000, ms % 1000)
        return (remainder < 0 ? seconds - 1 : seconds) * 1000
    }

    /// A number (PHP `is_numeric`), within `bounds` when given.
    static func number(_ name: String, _ value: String, _ bounds: ClosedRange<Double>? = nil) throws(ServiceError) -> Double {
        if let parsed = numeric(value), bounds.map({ $0.contains(parsed) }) ?? true { return parsed }
        let valid = bounds.map { "\(phpNumber($0.lowerBound)) <= \(name) <= \(phpNumber($0.upperBound))" } ?? "numeric"
        throw .badRequest("Bad \(name) value \"\(value)\". Valid values are \(valid)")
    }

    /// A bound as PHP prints it: whole numbers without a decimal point.
    private static func phpNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Digits only (PHP `ctype_digit`), at least `min`, at most `max` when given.
    static func integer(_ name: String, _ value: String, min: Int, max: Int?) throws(ServiceError) -> Int {
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let parsed = Int(value) ?? Int.max
            if parsed >= min, max.map({ parsed <= $0 }) ?? true { return parsed }
        }
        let valid = "\(min) <= \(name)" + (max.map { " <= \($0)" } ?? "")
        throw .badRequest("Bad \(name) value \"\(value)\". Valid values are \(valid)")
    }

    /// `true` or `false`, case-insensitive.
    static func boolean(_ name: String, _ value: String) throws(ServiceError) -> Bool {
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw .badRequest("Bad \(name) value \"\(value)\". Valid values are (case insensitive): \"TRUE\", \"FALSE\".")
        }
    }

    /// One of `allowed`, exactly.
    static func enumerated(_ name: String, _ value: String, _ allowed: [String]) throws(ServiceError) -> String {
        guard allowed.contains(value) else {
            throw .badRequest("Bad \(name) value \"\(value)\". Valid values are: \"\(allowed.joined(separator: "\", \""))\".")
        }
        return value
    }

    /// PHP 8 `is_numeric`: optional surrounding whitespace, sign, digits with an optional
    /// fraction, optional exponent. No `inf`, `nan` or hex, which Swift's `Double(_:)` would take.
    static func numeric(_ text: String) -> Double? {
        let whitespace: Set<Character> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]
        let trimmed = Substring(text).drop { whitespace.contains($0) }.reversed().drop { whitespace.contains($0) }.reversed()
        let body = String(trimmed)
        var chars = Array(body.utf8)[...]
        if let first = chars.first, first == 0x2B || first == 0x2D { chars = chars.dropFirst() }
        let isDigit = { (c: UInt8) in c >= 0x30 && c <= 0x39 }
        let integerDigits = chars.prefix(while: isDigit).count
        chars = chars.dropFirst(integerDigits)
        var fractionDigits = 0
        if chars.first == 0x2E {
            chars = chars.dropFirst()
            fractionDigits = chars.prefix(while: isDigit).count
            chars = chars.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if let e = chars.first, e == 0x65 || e == 0x45 {
            chars = chars.dropFirst()
            if let sign = chars.first, sign == 0x2B || sign == 0x2D { chars = chars.dropFirst() }
            let exponentDigits = chars.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            chars = chars.dropFirst(exponentDigits)
        }
        guard chars.isEmpty, let value = Double(body), value.isFinite else { return nil }
        return value
    }
}

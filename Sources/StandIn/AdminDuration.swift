import QuakeCatalog

/// Durations in admin bodies: a number of seconds, or text like `90s`, `30m`, `6h`, `2d`.
enum AdminDuration {
    /// The duration in ms; throws naming the field when it cannot be read or is negative.
    static func milliseconds(_ value: JSON?, _ name: String) throws(AdminError) -> Int64 {
        var seconds: Double?
        switch value {
        case .double(let number)?: seconds = number
        case .string(let text)?:
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            if let unit = text.last, let factor = units[unit] { seconds = Double(text.dropLast()).map { $0 * factor } } else { seconds = Double(text) }
        default: break
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 1e12 else {
            throw AdminError(status: 400, message: "\(name) must be seconds or a duration like 90s, 30m, 6h, 2d")
        }
        return Int64((seconds * 1000).rounded())
    }
}

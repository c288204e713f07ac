/// ISO-8601 times ↔ milliseconds since 1970 UTC.
///
/// Written by hand rather than with Foundation's formatters because (a) the
/// index reads millions of CSV timestamps and `ISO8601DateFormatter` costs
/// microseconds each, (b) the catalog reaches back to 1568 and needs plain
/// proleptic-Gregorian arithmetic, and (c) the parser must refuse the broken
/// stamps USGS has served (`1970-01-01T00:00:02.-2147483648Z`) instead of guessing.
public enum ISOTime {
    /// Parses `YYYY-MM-DD[(T| )hh:mm[:ss[.fff…]]][Z|±hh[:mm]]` (UTC unless a zone is given).
    /// Returns `nil` for anything else, including out-of-range fields.
    public static func parse(_ text: some StringProtocol) -> Int64? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 { bytes.removeLast() }
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= bytes.count else { return nil }
            var value = 0
            for k in 0..<n {
                let c = bytes[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += n
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var hour = 0, minute = 0, second = 0
        var millis: Int64 = 0
        var offsetMinutes = 0
        if i < bytes.count, bytes[i] == 0x54 || bytes[i] == 0x20 {  // 'T' or ' '
            i += 1
            guard let h = digits(2), expect(0x3A), let m = digits(2), h <= 23, m <= 59 else { return nil }
            hour = h; minute = m
            if expect(0x3A) {
                guard let s = digits(2), s <= 60 else { return nil }
                second = s
                if expect(0x2E) {  // fraction: at least one digit, milliseconds kept, the rest truncated
                    var count = 0
                    var fraction: Int64 = 0
                    while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                        if count < 3 { fraction = fraction * 10 + Int64(bytes[i] - 0x30) }
                        count += 1
                        i += 1
                    }
                    guard count > 0 else { return nil }
                    for _ in count..<max(count, 3) { fraction *= 10 }
                    millis = fraction
                }
            }
            if expect(0x5A) {  // 'Z'
            } else if i < bytes.count, bytes[i] == 0x2B || bytes[i] == 0x2D {  // '+' / '-'
                let sign = bytes[i] == 0x2B ? 1 : -1
                i += 1
                guard let oh = digits(2), oh <= 23 else { return nil }
                var om = 0
                if expect(0x3A) { guard let m = digits(2) else { return nil }; om = m } else if let m = digits(2) { om = m }
                guard om <= 59 else { return nil }
                offsetMinutes = sign * (oh * 60 + om)
            }
        }
        guard i == bytes.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + millis
    }

    /// `ms` → `2022-03-03T23:59:40.350Z` (ComCat CSV style).
    public static func format(milliseconds ms: Int64) -> String {
        let (seconds, millis) = floorDivide(ms, 1000)
        return formatSeconds(seconds) + "." + pad(Int(millis), 3) + "Z"
    }

    /// `ms` → `2022-03-03T23:59:40` (whole seconds, truncated toward the past), as FDSN parameters are written.
    public static func formatParameter(milliseconds ms: Int64) -> String {
        formatSeconds(floorDivide(ms, 1000).0)
    }

    private static func formatSeconds(_ seconds: Int64) -> String {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilFromDays(Int(days))
        let s = Int(secondOfDay)
        let yearText = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

import Foundation
import QuakeCatalog
import Testing

/// `ISOTime` against Foundation's calendar arithmetic (an independent witness), on the forms
/// ComCat and the FDSN parameters use, and on what it must refuse.
@Suite struct ISOTimeTests {
    /// Milliseconds since 1970 of a UTC civil time, by Foundation's Gregorian calendar.
    static func witness(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, ms: Int = 0, offsetMinutes: Int = 0) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
        return Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(ms) - Int64(offsetMinutes) * 60_000
    }

    @Test(arguments: [
        ("2024-01-02T03:04:05.678Z", witness(2024, 1, 2, 3, 4, 5, ms: 678)),
        ("2024-01-02T03:04:05Z", witness(2024, 1, 2, 3, 4, 5)),
        ("2024-01-02T03:04:05", witness(2024, 1, 2, 3, 4, 5)),
        ("2024-01-02 03:04", witness(2024, 1, 2, 3, 4)),
        ("2024-01-02", witness(2024, 1, 2)),
        ("2024-02-29T23:59:59.9Z", witness(2024, 2, 29, 23, 59, 59, ms: 900)),
        ("2024-01-02T03:04:05.123456Z", witness(2024, 1, 2, 3, 4, 5, ms: 123)),
        ("2024-01-02T03:04:05+02:00", witness(2024, 1, 2, 3, 4, 5, offsetMinutes: 120)),
        ("2024-01-02T03:04:05-0530", witness(2024, 1, 2, 3, 4, 5, offsetMinutes: -330)),
        ("1900-03-01T00:00:00Z", witness(1900, 3, 1)),
        ("2024-01-02T03:04:05Z  ", witness(2024, 1, 2, 3, 4, 5)),
    ])
    func parsesWhatComCatWrites(text: String, expected: Int64) {
        #expect(ISOTime.parse(text) == expected, "\(text)")
    }

    @Test(arguments: ["1970-01-01T00:00:02.-2147483648Z", "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-32", "2024-01-02T24:00",
                      "2024-01-02T03:60", "2024-01-02T03:04:05.", "2024-01-02T03:04:05.5X", "2024-1-2", "yesterday", "", "2024-01-02T03:04:05+24:00"])
    func refusesWhatIsNotATime(text: String) {
        #expect(ISOTime.parse(text) == nil, "\(text)")
    }

    @Test func formatAndParseRoundTripAcrossCenturies() {
        for ms: Int64 in [0, 1, -1, 999, -1_000, 1_700_000_000_123, -12_000_000_000_000, 4_102_444_800_000, 951_782_400_000] {
            let text = ISOTime.format(milliseconds: ms)
            #expect(ISOTime.parse(text) == ms, "\(ms) → \(text)")
            #expect(text.hasSuffix("Z") && text.count == 24, "\(text)")
        }
        #expect(ISOTime.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ISOTime.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }
}

import Foundation

/// How option texts are read and checked, for the declarations of options (`OptionDeclaration`):
/// each reader throws a usage error saying what is wrong with the text, without naming the
/// option (the caller names it: a flag or a configuration key).
public enum OptionText {
    public static func wholeNumber(_ text: String) throws -> Int {
        guard let number = Int(text) else { throw problem("\"\(text.prefix(80))\" is not a whole number") }
        return number
    }

    public static func number(_ text: String) throws -> Double {
        guard let number = Double(text), number.isFinite else { throw problem("\"\(text.prefix(80))\" is not a number") }
        return number
    }

    /// `true` or `false`, as the command line's `--x`/`--no-x` and a configuration's YAML booleans give it.
    public static func onOff(_ text: String) throws -> Bool {
        guard let flag = Bool(text) else { throw problem("\"\(text.prefix(80))\" is not true or false") }
        return flag
    }

    /// One of the named values of `T` (its raw values).
    public static func choice<T: RawRepresentable & CaseIterable>(_ text: String) throws -> T where T.RawValue == String {
        guard let choice = T(rawValue: text) else {
            throw problem("\"\(text.prefix(80))\" is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    /// A path, as given (`~` and relative ones are the reader's to resolve); an empty one is a
    /// mistake (an unset shell variable), not the current directory.
    public static func path(_ text: String) throws -> String {
        guard !text.isEmpty else { throw problem("must not be empty") }
        return text
    }

    /// Comma-separated items, trimmed, empty ones left out.
    public static func items(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A duration for people (`90`, `90s`, `10m`, `2h`, `1d`), in seconds.
    public static func duration(_ text: String) throws -> Double {
        guard let seconds = DurationText.seconds(text) else { throw problem("\"\(text.prefix(80))\" is not a duration (90, 90s, 10m, 2h, 1d)") }
        return seconds
    }

    /// Seconds: a duration, or a number that is not one (`-1`, `nan`, `inf`) as it is, for its
    /// range check to say what is wrong with it.
    public static func seconds(_ text: String) throws -> Double {
        if let number = Double(text), !number.isFinite || number < 0 { return number }
        return try duration(text)
    }

    /// `"must be at least \(minimum), not \(value)"` when `value` is below `minimum`.
    public static func atLeast(_ minimum: Int, _ value: Int) -> String? {
        value >= minimum ? nil : "must be at least \(minimum), not \(value)"
    }

    /// `"must be 1…16, not 17"` (with `unit` after the range: `"seconds"`) when `value` is outside `range`.
    public static func within<T: Comparable>(_ range: ClosedRange<T>, _ value: T, unit: String = "") -> String? {
        range.contains(value) ? nil : "must be \(range.lowerBound)…\(range.upperBound)\(unit.isEmpty ? "" : " " + unit), not \(value)"
    }

    /// A usage error saying `reason`.
    public static func problem(_ reason: String) -> QuakeBakeError { QuakeBakeError(reason, exitStatus: .usage) }
}

import Foundation
import QuakeCatalog
import QuakeCommon

/// How option texts are read, for the declarations of `ExportOption`: each throws a usage error
/// saying what is wrong with the text, without naming the option (the caller names it).
enum OptionText {
    static func wholeNumber(_ text: String) throws -> Int {
        guard let number = Int(text) else { throw problem("\"\(text.prefix(80))\" is not a whole number") }
        return number
    }

    static func number(_ text: String) throws -> Double {
        guard let number = Double(text), number.isFinite else { throw problem("\"\(text.prefix(80))\" is not a number") }
        return number
    }

    static func time(_ text: String) throws -> Int64 {
        guard let ms = ISOTime.parse(text) else {
            throw problem("\"\(text.prefix(80))\" is not an ISO-8601 time (e.g. 2024-01-31 or 2024-01-31T12:00:00Z)")
        }
        return ms
    }

    /// `true` or `false`, as the command line's `--x`/`--no-x` and a configuration's YAML booleans give it.
    static func onOff(_ text: String) throws -> Bool {
        guard let flag = Bool(text) else { throw problem("\"\(text.prefix(80))\" is not true or false") }
        return flag
    }

    /// One of the named values of `T` (its raw values).
    static func choice<T: RawRepresentable & CaseIterable>(_ text: String) throws -> T where T.RawValue == String {
        guard let choice = T(rawValue: text) else {
            throw problem("\"\(text.prefix(80))\" is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    /// Comma-separated items, trimmed, empty ones left out.
    static func items(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `"must be at least \(minimum), not \(value)"` when `value` is below `minimum`.
    static func atLeast(_ minimum: Int, _ value: Int) -> String? {
        value >= minimum ? nil : "must be at least \(minimum), not \(value)"
    }

    private static func problem(_ reason: String) -> QuakeBakeError { QuakeBakeError(reason, exitStatus: .usage) }
}

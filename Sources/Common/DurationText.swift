import Foundation

/// Durations written for people: `90` (seconds), `45s`, `10m`, `6h`, `2d`.
public enum DurationText {
    /// Seconds, or `nil` when `text` is not a duration.
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = units[last], let value = Double(trimmed.dropLast()), value >= 0 { return value * unit }
        if let value = Double(trimmed), value >= 0 { return value }
        return nil
    }
}

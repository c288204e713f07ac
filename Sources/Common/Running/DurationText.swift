import Foundation

/// Durations written for people: `90` (seconds), `45s`, `10m`, `6h`, `2d`.
public enum DurationText {
    /// Seconds, or `nil` when `text` is not a duration.
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return nil }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        // Finite only: "inf" is not a duration, nor is anything that overflows to it.
        if let unit = units[last], let value = Double(trimmed.dropLast()), value >= 0, (value * unit).isFinite { return value * unit }
        if let value = Double(trimmed), value >= 0, value.isFinite { return value }
        return nil
    }

    /// `seconds` for people: `45 s`, `10 min`, `27.8 h`.
    public static func describe(_ seconds: Double) -> String {
        if seconds < 120 { return String(format: "%g s", (seconds * 10).rounded() / 10) }
        if seconds < 7200 { return String(format: "%g min", (seconds / 6).rounded() / 10) }
        return String(format: "%g h", (seconds / 360).rounded() / 10)
    }
}

import Foundation

/// The clock plausibility checks read ("more than a day in the future").
///
/// `QUAKE_BAKE_NOW` (ISO-8601 or epoch milliseconds) sets it, so tests and
/// replays of old feeds can read files as of the day they were published.
public enum ReferenceClock {
    /// Now, in ms since 1970 UTC: `QUAKE_BAKE_NOW` when set and valid, else the system clock.
    public static var nowMilliseconds: Int64 {
        // getenv, not ProcessInfo's dictionary: this is read once per event.
        if let raw = getenv("QUAKE_BAKE_NOW"), case let text = String(cString: raw),
           let ms = ISOTime.parse(text) ?? Int64(text) {
            return ms
        }
        return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

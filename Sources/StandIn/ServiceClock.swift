import Foundation

/// The service's idea of "now": the wall clock, or a fixed time set at startup
/// (`--now`), through the admin interface, or by replay. It drives the default
/// `starttime`, `metadata.generated` and the `updated` of edited events.
struct ServiceClock: Sendable {
    /// A fixed time (ms since 1970 UTC), or `nil` for the wall clock.
    var fixed: Int64?

    /// Now, ms since 1970 UTC.
    var now: Int64 {
        fixed ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Now, truncated to the second, as the service writes `generated` and computes defaults.
    var nowSeconds: Int64 {
        let ms = now
        return (ms >= 0 ? ms / 1000 : (ms - 999) / 1000) * 1000
    }
}

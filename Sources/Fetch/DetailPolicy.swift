import QuakeCatalog

/// Which quakes `fetch` asks the service for details of (`--details`).
public enum DetailPolicy: String, Sendable, CaseIterable, Codable {
    /// What USGS's own significant feed takes: `sig` ≥ 600, or any PAGER `alert`.
    case significant
    /// Every quake of the selection (mind `--details-per-run`: one request each, and their files).
    case all
    /// None.
    case none

    /// USGS's significance threshold (the significant feeds take `sig` ≥ 600).
    public static let significance = 600

    /// Whether `event` (a version the service sent) wants details: never a deleted one.
    public func wants(_ event: QuakeEvent) -> Bool {
        guard !event.isDeleted else { return false }
        switch self {
        case .significant: return (event.sig ?? 0) >= Self.significance || event.alert != nil
        case .all: return true
        case .none: return false
        }
    }
}

import QuakeCatalog
import QuakeCommon

/// How many days the recent layer holds (`--recent-days auto|off|N`; see `RecentLayer`).
public enum RecentDays: Sendable, Hashable, CustomStringConvertible {
    /// `autoDays` days when the selection is long enough for it (see `RecentLayer.chosen`),
    /// none otherwise (the default): a catalog of years gets small deltas, a catalog of weeks
    /// keeps every quake in the tiles.
    case auto
    /// Every quake in the tiles: for a client that reads the tiles alone.
    case off
    /// The last `N` to `2N` days apart from the tiles, whatever the selection.
    case days(Int)

    /// The recent layer's length under `auto`: a week, the span of USGS's "past week" feeds.
    public static let autoDays = 7
    /// The longest recent layer allowed, in days.
    public static let maximumDays = 366

    /// Reads `auto`, `off` (or `false`, as YAML may give it) or a whole number of days.
    public init?(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "off", "false", "no": self = .off
        default:
            guard let days = Int(text) else { return nil }
            self = .days(days)
        }
    }

    public var description: String {
        switch self {
        case .auto: "auto"
        case .off: "off"
        case .days(let days): "\(days)"
        }
    }

    /// As the manifest's options give it: `"auto"`, `"off"` or the number of days.
    var json: JSON {
        if case .days(let days) = self { return .int(days) }
        return .string(description)
    }

    /// Reads `text` as `init(_:)` does; throws a usage error saying what is wrong.
    static func parse(_ text: String) throws -> RecentDays {
        guard let days = RecentDays(text) else {
            throw QuakeBakeError("\"\(text.prefix(80))\" is not auto, off or a number of days", exitStatus: .usage)
        }
        return days
    }

    /// What is wrong with a number of days outside 1…`maximumDays`.
    var problem: String? {
        if case .days(let days) = self, !(1...Self.maximumDays).contains(days) { return "must be auto, off or 1…\(Self.maximumDays), not \(days)" }
        return nil
    }
}

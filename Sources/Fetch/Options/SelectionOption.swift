import QuakeCatalog
import QuakeCommon

/// One option of which events `fetch` asks for (`--min-magnitude`; `selection: min_magnitude:`),
/// declared once in `SelectionOption.all`: `fetch`'s and `bake`'s flags and the configuration's
/// `selection:` section are made from the declarations, the defaults are `FetchSelection()`'s.
public typealias SelectionOption = OptionDeclaration<FetchSelection>

extension FetchSelection: DeclaredOptions {}

extension OptionDeclaration where Options == FetchSelection {
    /// Every option of the selection, in the order `--help` lists them.
    public static let all: [SelectionOption] = [
        start, end, minMagnitude, maxMagnitude, minDepth, maxDepth, bbox, circle, eventTypes, catalog,
    ]

    public static let start = SelectionOption(
        flag: "start", key: "start", at: \.start, valueName: "time",
        summary: "Start of the origin-time range (ISO-8601, UTC unless zoned). Default: 30 days ago.", parse: OptionText.time, text: nil)

    public static let end = SelectionOption(
        flag: "end", key: "end", at: \.end, valueName: "time", summary: "End of the origin-time range (ISO-8601). Default: now.",
        parse: OptionText.time, text: nil)

    public static let minMagnitude = number("min-magnitude", key: "min_magnitude", at: \.minMagnitude, valueName: "mag", "Smallest magnitude.")
    public static let maxMagnitude = number("max-magnitude", key: "max_magnitude", at: \.maxMagnitude, valueName: "mag", "Largest magnitude.")
    public static let minDepth = number("min-depth", key: "min_depth", at: \.minDepth, valueName: "km", "Shallowest depth, km (negative: above sea level).")
    public static let maxDepth = number("max-depth", key: "max_depth", at: \.maxDepth, valueName: "km", "Deepest depth, km.")

    public static let bbox = SelectionOption(
        flag: "bbox", key: "bbox", at: \.bbox, form: .list, valueName: "box",
        summary: "A rectangle west,south,east,north in degrees; west > east crosses the antimeridian (170,-50,-170,-10).",
        parse: { try BoundingBox(parsing: $0) }, text: nil)

    public static let circle = SelectionOption(
        flag: "circle", key: "circle", at: \.circle, form: .list, valueName: "circle",
        summary: "A circle lat,lon,radiusKm (intersected with --bbox when both are given).",
        parse: { try FetchSelection.Circle(parsing: $0) }, check: { $0?.problem }, text: nil)

    public static let eventTypes = SelectionOption(
        flag: "event-type", key: "event_types", at: \.eventTypes, form: .list, valueName: "type",
        summary: "Only this event type (repeatable): earthquake, \"quarry blast\", …",
        parse: { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } },
        check: { types in types.first { $0.isEmpty || $0.contains(",") }.map { "\"\($0)\" must be one non-empty type name" } }, text: nil)

    public static let catalog = SelectionOption(
        flag: "catalog", key: "catalog", at: \.catalog, valueName: "name", summary: "An FDSN catalog name (default: the preferred solutions).",
        parse: { $0 },
        check: { name in
            name.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty || $0.count > 64 ? $0 : nil }
                .map { "\"\($0)\" must be a catalog name (e.g. us, ak, nc), not empty and at most 64 characters" }
        }, text: nil)

    /// An option of a finite number.
    private static func number(_ flag: String, key: String, at path: WritableKeyPath<FetchSelection, Double?> & Sendable, valueName: String,
                               _ summary: String) -> SelectionOption {
        SelectionOption(flag: flag, key: key, at: path, valueName: valueName, summary: summary, parse: OptionText.number,
                        check: { $0.flatMap { $0.isFinite ? nil : "must be a finite number, not \($0)" } }, text: nil)
    }
}

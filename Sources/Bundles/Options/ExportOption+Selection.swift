import QuakeCatalog
import QuakeCommon

/// The options of which events a bundle holds (`export --since …`; `export: since:`), in the
/// manifest under `options.selection`.
extension ExportOption {
    public static let since = ExportOption(
        flag: "since", key: "since", manifest: (.selection, "since"), at: \.selection.since, valueName: "time",
        summary: "Only events at or after this time (ISO 8601, UTC unless a zone is given).",
        parse: OptionText.time, text: nil, json: time)

    public static let until = ExportOption(
        flag: "until", key: "until", manifest: (.selection, "until"), at: \.selection.until, valueName: "time",
        summary: "Only events before this time.",
        parse: OptionText.time, text: nil, json: time)

    public static let minMagnitude = ExportOption(
        flag: "min-magnitude", key: "min_magnitude", manifest: (.selection, "min_magnitude"), at: \.selection.minMagnitude, valueName: "m",
        summary: "Only events with at least this magnitude.",
        parse: OptionText.number, check: { $0.map { $0.isFinite ? nil : "must be a number" } ?? nil }, text: nil, json: { .number($0) })

    public static let bbox = ExportOption(
        flag: "bbox", key: "bbox", manifest: (.selection, "bbox"), at: \.selection.bbox, form: .list, valueName: "w,s,e,n",
        summary: "Only events inside west,south,east,north (west > east crosses the antimeridian).",
        parse: { try BoundingBox(parsing: $0) }, text: nil, json: { $0.map { .string($0.description) } ?? .null })

    public static let eventTypes = ExportOption(
        flag: "event-type", key: "event_types", manifest: (.selection, "event_types"), at: \.selection.eventTypes, form: .list, valueName: "type",
        summary: "Only events of this type (repeat or comma-separate; default: all).",
        parse: OptionText.items, text: nil, json: { .array($0.map(JSON.string)) })

    /// A time as the manifest writes it: ISO 8601, or null.
    private static func time(_ ms: Int64?) -> JSON {
        ms.map { .string(ISOTime.format(milliseconds: $0)) } ?? .null
    }
}

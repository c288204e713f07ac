/// One column of the store's `events` table.
public struct StoreColumn: Sendable, Equatable {
    /// SQLite's declared type of the column.
    public enum SQLType: String, Sendable {
        case text = "TEXT", integer = "INTEGER", real = "REAL"
    }

    /// The column's name.
    public let name: String
    /// Its declared type.
    public let type: SQLType
    /// Whether the column is `NOT NULL`.
    public let required: Bool
    /// Whether it is part of the contract other stages read (and the app database carries);
    /// the other columns are kept so that a stored event reads back exactly as it was indexed.
    public let contract: Bool
    /// What the column holds, when its name does not say it (a comment in the table's SQL).
    let note: String?

    /// The column as written in a `CREATE TABLE`: name, type and `NOT NULL` when required.
    public var definition: String {
        "\(name) \(type.rawValue)\(required ? " NOT NULL" : "")"
    }
}

/// The columns of the store's `events` table, in table order, `geom` aside (SpatiaLite adds
/// it): the one list the table (`StoreSchema`), its writer (`EventRow`), its readers
/// (`StoreRows`) and the export's app database are made from.
public enum StoreColumns {
    /// Every column of `events` but `geom`, in table order (schema version 1; a later version
    /// appends its columns here and adds them in its migration).
    public static let events: [StoreColumn] = [
        column("id", .text, required: true, note: "the preferred id"),
        column("ids", .text, required: true, note: "every id of this version, comma-wrapped"),
        column("sources", .text, required: true),
        column("types", .text, required: true),
        column("time", .integer, required: true, note: "origin time, ms since 1970 UTC"),
        column("updated", .integer, required: true, note: "version, ms since 1970 UTC"),
        column("longitude", .real, required: true, note: "exact, [-180, 180]"),
        column("latitude", .real, required: true, note: "exact, [-90, 90]"),
        column("depth_km", .real), column("mag", .real), column("mag_type", .text), column("place", .text),
        column("status", .text), column("event_type", .text), column("net", .text), column("code", .text),
        column("felt", .integer), column("cdi", .real), column("mmi", .real), column("alert", .text),
        column("tsunami", .integer), column("sig", .integer), column("nst", .integer), column("dmin", .real),
        column("rms", .real), column("gap", .real), column("title", .text), column("url", .text),
        column("detail", .text, contract: false), column("tz", .integer, contract: false),
        column("horizontal_error", .real, contract: false), column("depth_error", .real, contract: false),
        column("mag_error", .real, contract: false), column("mag_nst", .integer, contract: false),
        column("location_source", .text, contract: false), column("mag_source", .text, contract: false),
    ]

    /// The contract columns (docs/store.md), in table order.
    public static let contract = events.filter(\.contract)

    /// The names of the contract columns, in table order.
    public static let contractNames = contract.map(\.name)

    /// The columns holding a link an app may open: an export reads them through `read(_:table:)`.
    static let links: Set<String> = ["url", "detail"]

    /// Column `name` (of `table`, when given) as an export reads it: a link that is not http(s)
    /// (`WebLink`) reads as NULL, whatever a quake-bake before issue 46, or another tool, stored.
    /// (`LIKE` folds ASCII case, as `WebLink.isWeb` does.)
    public static func read(_ name: String, table: String? = nil) -> String {
        let column = table.map { "\($0).\(name)" } ?? name
        guard links.contains(name) else { return column }
        return "CASE WHEN \(column) LIKE 'http://%' OR \(column) LIKE 'https://%' THEN \(column) END"
    }

    /// `CREATE TABLE events (…)` as the store has it: `id` is the primary key, and each
    /// column's note is a comment in the SQL that `sqlite3 .schema` shows.
    public static var createEventsSQL: String { createEventsSQL(id: keyedID) }

    /// `id` as the store has it, and as a fresh build loads it (see `StoreSchema.createForBulkBuild`).
    static let keyedID = "id TEXT PRIMARY KEY NOT NULL", unkeyedID = "id TEXT NOT NULL"

    /// `CREATE TABLE events (…)` with `id` defined as `id`.
    static func createEventsSQL(id: String) -> String {
        let lines = events.enumerated().map { index, column in
            let definition = column.name == "id" ? id : column.definition
            let separator = index == events.count - 1 ? "" : ","
            return "    " + definition + separator + (column.note.map { " -- \($0)" } ?? "")
        }
        return "CREATE TABLE events (\n" + lines.joined(separator: "\n") + "\n);"
    }

    private static func column(_ name: String, _ type: StoreColumn.SQLType, required: Bool = false,
                               contract: Bool = true, note: String? = nil) -> StoreColumn {
        StoreColumn(name: name, type: type, required: required, contract: contract, note: note)
    }
}

import GRDB
import QuakeCatalog

/// How a `QuakeEvent` maps onto a row of `events`, both ways.
enum EventRow {
    /// The stored columns, in binding order (`geom` last, built from the coordinates; see
    /// `EventRowWriter`, which binds them).
    static let columns = StoreColumns.events.map(\.name) + ["geom"]

    /// `INSERT INTO events (…) VALUES (?, …)`.
    static let insertSQL = "INSERT INTO events (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"

    /// `UPDATE events SET … WHERE rowid = ?` (the row keeps its rowid, and so its R-tree entry's key).
    static let updateSQL = "UPDATE events SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE rowid = ?"

    /// `SELECT <columns without geom> FROM events`, for `event(from:)`.
    static let selectSQL = "SELECT \(columns.dropLast().joined(separator: ", ")) FROM events"

    /// The event stored in `row` (selected with `selectSQL`): the same value that was indexed.
    static func event(from row: Row) -> QuakeEvent {
        var e = QuakeEvent(id: row["id"], updated: row["updated"], time: row["time"],
                           longitude: row["longitude"], latitude: row["latitude"])
        e.ids = CommaList.parse(row["ids"])
        e.sources = CommaList.parse(row["sources"])
        e.types = CommaList.parse(row["types"])
        e.depthKm = row["depth_km"]
        e.mag = row["mag"]
        e.magType = row["mag_type"]
        e.place = row["place"]
        e.status = row["status"]
        e.eventType = row["event_type"]
        e.net = row["net"]
        e.code = row["code"]
        e.felt = row["felt"]
        e.cdi = row["cdi"]
        e.mmi = row["mmi"]
        e.alert = row["alert"]
        e.tsunami = row["tsunami"]
        e.sig = row["sig"]
        e.nst = row["nst"]
        e.dmin = row["dmin"]
        e.rms = row["rms"]
        e.gap = row["gap"]
        e.title = row["title"]
        e.url = row["url"]
        e.detail = row["detail"]
        e.tz = row["tz"]
        e.horizontalError = row["horizontal_error"]
        e.depthError = row["depth_error"]
        e.magError = row["mag_error"]
        e.magNst = row["mag_nst"]
        e.locationSource = row["location_source"]
        e.magSource = row["mag_source"]
        return e
    }
}

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
    /// A value of the wrong kind (text where a number belongs, a blob: only a store written
    /// behind quake-bake's back holds one) throws, naming the column, rather than trapping.
    static func event(from row: Row) throws -> QuakeEvent {
        var e = try QuakeEvent(id: row.decode(forColumn: "id"), updated: row.decode(forColumn: "updated"), time: row.decode(forColumn: "time"),
                               longitude: row.decode(forColumn: "longitude"), latitude: row.decode(forColumn: "latitude"))
        e.ids = CommaList.parse(try row.decode(forColumn: "ids"))
        e.sources = CommaList.parse(try row.decode(forColumn: "sources"))
        e.types = CommaList.parse(try row.decode(forColumn: "types"))
        e.depthKm = try row.decode(forColumn: "depth_km")
        e.mag = try row.decode(forColumn: "mag")
        e.magType = try row.decode(forColumn: "mag_type")
        e.place = try row.decode(forColumn: "place")
        e.status = try row.decode(forColumn: "status")
        e.eventType = try row.decode(forColumn: "event_type")
        e.net = try row.decode(forColumn: "net")
        e.code = try row.decode(forColumn: "code")
        e.felt = try row.decode(forColumn: "felt")
        e.cdi = try row.decode(forColumn: "cdi")
        e.mmi = try row.decode(forColumn: "mmi")
        e.alert = try row.decode(forColumn: "alert")
        e.tsunami = try row.decode(forColumn: "tsunami")
        e.sig = try row.decode(forColumn: "sig")
        e.nst = try row.decode(forColumn: "nst")
        e.dmin = try row.decode(forColumn: "dmin")
        e.rms = try row.decode(forColumn: "rms")
        e.gap = try row.decode(forColumn: "gap")
        e.title = try row.decode(forColumn: "title")
        e.url = try row.decode(forColumn: "url")
        e.detail = try row.decode(forColumn: "detail")
        e.tz = try row.decode(forColumn: "tz")
        e.horizontalError = try row.decode(forColumn: "horizontal_error")
        e.depthError = try row.decode(forColumn: "depth_error")
        e.magError = try row.decode(forColumn: "mag_error")
        e.magNst = try row.decode(forColumn: "mag_nst")
        e.locationSource = try row.decode(forColumn: "location_source")
        e.magSource = try row.decode(forColumn: "mag_source")
        return e
    }
}

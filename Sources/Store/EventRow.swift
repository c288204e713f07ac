import GRDB
import QuakeCatalog

/// How a `QuakeEvent` maps onto a row of `events`, both ways.
enum EventRow {
    /// The stored columns, in binding order (`geom` last, built from the coordinates).
    static let columns = [
        "id", "ids", "sources", "types", "time", "updated", "longitude", "latitude", "depth_km", "mag",
        "mag_type", "place", "status", "event_type", "net", "code", "felt", "cdi", "mmi", "alert",
        "tsunami", "sig", "nst", "dmin", "rms", "gap", "title", "url", "detail", "tz",
        "horizontal_error", "depth_error", "mag_error", "mag_nst", "location_source", "mag_source", "geom",
    ]

    /// `INSERT INTO events (…) VALUES (?, …)`.
    static let insertSQL = "INSERT INTO events (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"

    /// `UPDATE events SET … WHERE rowid = ?` (the row keeps its rowid, and so its R-tree entry's key).
    static let updateSQL = "UPDATE events SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE rowid = ?"

    /// Binds `event` to parameters 1…`columns.count`. The event must have coordinates and a time
    /// (every stored event does; deletions go to `tombstones`).
    static func bind(_ e: QuakeEvent, to s: RawStatement) {
        let longitude = e.longitude ?? 0, latitude = e.latitude ?? 0
        s.bind(1, e.id)
        s.bind(2, CommaList.format(e.ids))
        s.bind(3, CommaList.format(e.sources))
        s.bind(4, CommaList.format(e.types))
        s.bind(5, e.time)
        s.bind(6, e.updated)
        s.bind(7, longitude)
        s.bind(8, latitude)
        s.bind(9, e.depthKm)
        s.bind(10, e.mag)
        s.bind(11, e.magType)
        s.bind(12, e.place)
        s.bind(13, e.status)
        s.bind(14, e.eventType)
        s.bind(15, e.net)
        s.bind(16, e.code)
        s.bind(17, e.felt)
        s.bind(18, e.cdi)
        s.bind(19, e.mmi)
        s.bind(20, e.alert)
        s.bind(21, e.tsunami)
        s.bind(22, e.sig)
        s.bind(23, e.nst)
        s.bind(24, e.dmin)
        s.bind(25, e.rms)
        s.bind(26, e.gap)
        s.bind(27, e.title)
        s.bind(28, e.url)
        s.bind(29, e.detail)
        s.bind(30, e.tz)
        s.bind(31, e.horizontalError)
        s.bind(32, e.depthError)
        s.bind(33, e.magError)
        s.bind(34, e.magNst)
        s.bind(35, e.locationSource)
        s.bind(36, e.magSource)
        SpatiaLitePoint.withBlob(longitude: longitude, latitude: latitude) { s.bind(37, blob: $0) }
    }

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

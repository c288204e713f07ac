import Foundation
import QuakeCatalog

/// The changes the catalog can undergo while the stand-in runs (admin interface and
/// replay simulation). Each bumps `updated` as the real service would: to the service's
/// now, and always past the previous value, so `updatedafter` sync sees every change.
enum EventEdits {
    /// `max(now, previous + 1)`.
    static func bumped(_ previous: Int64, now: Int64) -> Int64 { max(now, previous + 1) }

    /// The event marked deleted (`status` "deleted"), everything else kept.
    static func deleted(_ event: QuakeEvent, now: Int64) -> QuakeEvent {
        var next = event
        next.status = "deleted"
        next.updated = bumped(event.updated, now: now)
        return next
    }

    /// The event under a new preferred id: `id` is `newId`, the old ids stay in `ids`,
    /// `net`/`code` follow the new id (network = its first two letters, as USGS ids are
    /// built), the new network leads `sources`, and `url`/`detail` name the new id.
    static func renamed(_ event: QuakeEvent, to newId: String, now: Int64) -> QuakeEvent {
        var next = event
        next.id = newId
        next.ids = [newId] + event.allIds.filter { $0 != newId }
        let net = String(newId.prefix(2))
        next.net = net
        next.code = String(newId.dropFirst(2))
        next.sources = [net] + event.sources.filter { $0 != net }
        next.url = event.url?.replacingOccurrences(of: event.id, with: newId)
        next.detail = event.detail?.replacingOccurrences(of: event.id, with: newId)
        next.updated = bumped(event.updated, now: now)
        return next
    }

    /// The GeoJSON property names (and `latitude`, `longitude`, `depth`) an admin update may set.
    static let editableFields = ["mag", "place", "time", "updated", "tz", "url", "detail", "felt", "cdi", "mmi", "alert", "status",
                                 "tsunami", "sig", "net", "code", "nst", "dmin", "rms", "gap", "magType", "type", "title",
                                 "latitude", "longitude", "depth"]

    /// The event with `fields` changed (`null` clears a field). `updated` is bumped unless `fields` sets it.
    static func updated(_ event: QuakeEvent, fields: [String: JSON], now: Int64) throws(AdminError) -> QuakeEvent {
        var e = event
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            func bad(_ what: String) -> AdminError { AdminError(status: 400, message: "field \(name): \(what)") }
            func number() throws(AdminError) -> Double? {
                switch value {
                case .null: return nil
                case .double(let n) where n.isFinite: return n
                default: throw bad("must be a number or null")
                }
            }
            func whole() throws(AdminError) -> Int? {
                guard let n = try number() else { return nil }
                guard n == n.rounded(), abs(n) < 9e15 else { throw bad("must be a whole number or null") }
                return Int(n)
            }
            func text() throws(AdminError) -> String? {
                switch value {
                case .null: return nil
                case .string(let s): return s
                default: throw bad("must be a string or null")
                }
            }
            switch name {
            case "mag": e.mag = try number()
            case "place": e.place = try text()
            case "time": e.time = value == .null ? nil : try AdminJSON.time(value, name)
            case "updated": e.updated = try AdminJSON.time(value, name)
            case "tz": e.tz = try whole()
            case "url": e.url = try text()
            case "detail": e.detail = try text()
            case "felt": e.felt = try whole()
            case "cdi": e.cdi = try number()
            case "mmi": e.mmi = try number()
            case "alert": e.alert = try text()
            case "status": e.status = try text()
            case "tsunami": e.tsunami = try whole()
            case "sig": e.sig = try whole()
            case "net": e.net = try text()
            case "code": e.code = try text()
            case "nst": e.nst = try whole()
            case "dmin": e.dmin = try number()
            case "rms": e.rms = try number()
            case "gap": e.gap = try number()
            case "magType": e.magType = try text()
            case "type": e.eventType = try text()
            case "title": e.title = try text()
            case "latitude":
                guard let latitude = try number(), (-90...90).contains(latitude) else { throw bad("must be a number in -90…90") }
                e.latitude = latitude
            case "longitude":
                guard let longitude = try number(), (-180...180).contains(longitude) else { throw bad("must be a number in -180…180") }
                e.longitude = longitude
            case "depth": e.depthKm = try number()
            default:
                throw AdminError(status: 400, message: "unknown field \"\(name)\"; fields: \(editableFields.joined(separator: ", "))")
            }
        }
        if fields["updated"] == nil { e.updated = bumped(event.updated, now: now) }
        return e
    }
}

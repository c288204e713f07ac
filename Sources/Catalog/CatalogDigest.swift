import Foundation
import QuakeCommon

/// A fingerprint of a set of events: their ids, versions, origin times, coordinates, depths and
/// magnitudes. Two sides holding the same events give the same digest whatever their order,
/// so the replay suite can check the store against the stand-in at every step without
/// shipping the whole catalog.
///
/// The SHA-256 of one line per event, `id|updated|time|longitude|latitude|depth|mag` (numbers
/// as Swift prints them, `-` for none), sorted by their bytes, each ending in a newline. The
/// lines are built and sorted as bytes: at 440,000 events, every replay step digests both sides.
public enum CatalogDigest {
    /// The digest of `events` (deleted ones included as given; callers filter first).
    public static func of(_ events: some Sequence<QuakeEvent>) -> String {
        of(lines: events.map(line(of:)))
    }

    /// The line of `event` (without its newline).
    public static func line(of event: QuakeEvent) -> [UInt8] {
        line(id: event.id, updated: event.updated, time: event.time, longitude: event.longitude, latitude: event.latitude,
             depthKm: event.depthKm, mag: event.mag)
    }

    /// The digest of lines made by `line(…)`.
    public static func of(lines: [[UInt8]]) -> String {
        let sorted = lines.sorted { a, b in
            a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { y in
                    let common = memcmp(x.baseAddress!, y.baseAddress!, min(x.count, y.count))
                    return common != 0 ? common < 0 : x.count < y.count
                }
            }
        }
        var text = Data(capacity: sorted.reduce(0) { $0 + $1.count + 1 })
        for line in sorted {
            text.append(contentsOf: line)
            text.append(0x0A)
        }
        return SHA256.hex(text)
    }

    /// One event's line (without its newline).
    public static func line(id: String, updated: Int64, time: Int64?, longitude: Double?, latitude: Double?,
                            depthKm: Double?, mag: Double?) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(id.utf8.count + 96)
        out += id.utf8
        out.append(0x7C)
        out += String(updated).utf8
        out.append(0x7C)
        if let time { out += String(time).utf8 } else { out.append(0x2D) }
        for value in [longitude, latitude, depthKm, mag] {
            out.append(0x7C)
            if let value { out += value.description.utf8 } else { out.append(0x2D) }
        }
        return out
    }
}

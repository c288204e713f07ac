import Foundation
import QuakeCommon

/// A fingerprint of a set of events: their ids, versions, origin times, coordinates, depths and
/// magnitudes. Two sides holding the same events give the same digest whatever their order,
/// so the replay suite can check the store against the stand-in at every step without
/// shipping the whole catalog.
public enum CatalogDigest {
    /// The digest of `events` (deleted ones included as given; callers filter first).
    public static func of(_ events: some Sequence<QuakeEvent>) -> String {
        let lines = events.map(line).sorted()
        var text = Data()
        text.reserveCapacity(lines.count * 80)
        for line in lines {
            text.append(contentsOf: line.utf8)
            text.append(0x0A)
        }
        return SHA256.hex(text)
    }

    private static func line(_ e: QuakeEvent) -> String {
        func number(_ value: Double?) -> String { value.map { "\($0)" } ?? "-" }
        return "\(e.id)|\(e.updated)|\(e.time.map(String.init) ?? "-")|\(number(e.longitude))|\(number(e.latitude))|\(number(e.depthKm))|\(number(e.mag))"
    }
}

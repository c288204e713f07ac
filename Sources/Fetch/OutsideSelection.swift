import Foundation
import QuakeCatalog
import QuakeCommon

extension FetchSelection {
    /// Why `event` is not what a request for this selection between `start` and `end` (ms,
    /// both inclusive, as FDSN's `starttime`/`endtime`) asked for; `nil` when it is.
    ///
    /// The rule for such events (docs/guide/fetch.md): a service that answers more than was asked
    /// is still the catalog's authority, so they are archived and stored as it sent them, and
    /// counted and reported, never dropped unseen. The circle is not checked (the service's
    /// own distance is the one that counts).
    func whyOutside(_ event: QuakeEvent, start: Int64, end: Int64) -> String? {
        if let time = event.time, time < start || time > end {
            return "origin time \(ISOTime.format(milliseconds: time)) is outside the window asked for"
        }
        if let mag = event.mag {
            if let minMagnitude, mag < minMagnitude { return "magnitude \(Format.number(mag)) is below --min-magnitude \(Format.number(minMagnitude))" }
            if let maxMagnitude, mag > maxMagnitude { return "magnitude \(Format.number(mag)) is above --max-magnitude \(Format.number(maxMagnitude))" }
        }
        if let depth = event.depthKm {
            if let minDepth, depth < minDepth { return "depth \(Format.number(depth)) km is above --min-depth \(Format.number(minDepth))" }
            if let maxDepth, depth > maxDepth { return "depth \(Format.number(depth)) km is below --max-depth \(Format.number(maxDepth))" }
        }
        if let bbox, let longitude = event.longitude, let latitude = event.latitude, !bbox.contains(longitude: longitude, latitude: latitude) {
            return "\(Format.number(latitude)), \(Format.number(longitude)) is outside --bbox \(bbox)"
        }
        if !eventTypes.isEmpty, let type = event.eventType, !eventTypes.contains(type) {
            return "type \"\(type)\" is not among --event-type \(eventTypes.joined(separator: ","))"
        }
        return nil
    }
}

import Foundation
import QuakeCatalog

/// An answer whose events are chosen but whose text is not written yet. Writing a
/// large page takes a while, so it happens outside the state actor (see `render`).
enum PendingAnswer: Sendable {
    case ready(ServiceAnswer)
    /// A FeatureCollection (`query`), optionally wrapped in a JSONP callback.
    case collection([QuakeEvent], PageMetadata, callback: String?)
    /// One Feature (`query?eventid=`).
    case feature(QuakeEvent, callback: String?)
    /// ComCat CSV (`format=csv`).
    case csv([QuakeEvent])

    /// The finished answer.
    func render() -> ServiceAnswer {
        switch self {
        case .ready(let answer):
            return answer
        case .collection(let events, let metadata, let callback):
            return Self.json(GeoJSONWriter.collection(events, metadata: metadata), callback: callback)
        case .feature(let event, let callback):
            return Self.json(GeoJSONWriter.feature(event), callback: callback)
        case .csv(let events):
            return ServiceAnswer(status: 200, contentType: "text/csv", text: ComCatCSV.write(events))
        }
    }

    static func json(_ text: String, callback: String?) -> ServiceAnswer {
        guard let callback else { return ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: text) }
        return ServiceAnswer(status: 200, contentType: "text/javascript", text: "\(callback)(\(text));")
    }
}

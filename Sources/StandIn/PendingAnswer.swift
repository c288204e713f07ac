import Foundation
import QuakeCatalog

/// An answer whose events are chosen but whose text is not written yet. Writing a
/// large page takes a while, so it happens outside the state actor (see `render`).
enum PendingAnswer: Sendable {
    case ready(ServiceAnswer)
    /// A FeatureCollection (`query`), optionally wrapped in a JSONP callback.
    case collection([QuakeEvent], PageMetadata, callback: String?)
    /// One event's detail answer (`query?eventid=`): its Feature with its products, their
    /// content URLs below `base` (see `RecordedDetails.productsText`).
    case detail(QuakeEvent, RecordedDetails, base: String, includeSuperseded: Bool, callback: String?)
    /// ComCat CSV (`format=csv`).
    case csv([QuakeEvent])

    /// The finished answer.
    func render() -> ServiceAnswer {
        switch self {
        case .ready(let answer):
            return answer
        case .collection(let events, let metadata, let callback):
            return Self.json(GeoJSONWriter.collection(events, metadata: metadata), callback: callback)
        case .detail(let event, let details, let base, let includeSuperseded, let callback):
            let products = details.productsText(for: event, base: base, includeSuperseded: includeSuperseded)
            return Self.json(GeoJSONWriter.detail(event, products: products), callback: callback)
        case .csv(let events):
            return ServiceAnswer(status: 200, contentType: "text/csv", text: ComCatCSV.write(events))
        }
    }

    static func json(_ text: String, callback: String?) -> ServiceAnswer {
        guard let callback else { return ServiceAnswer(status: 200, contentType: ServiceAnswer.json, text: text) }
        return ServiceAnswer(status: 200, contentType: "text/javascript", text: "\(callback)(\(text));")
    }
}

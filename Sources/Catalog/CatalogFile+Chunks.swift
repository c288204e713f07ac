import Foundation
import QuakeCommon

extension CatalogFile {
    /// Reads `data` like `read(_:source:)`, handing the events of a GeoJSON FeatureCollection
    /// or a ComCat CSV over in chunks of `chunkSize` as they are read (see
    /// `GeoJSONReader.read(_:source:chunkSize:events:)`), so that a big file is never held as
    /// events all at once. Other kinds (a single Feature, damaged files) come back whole in
    /// the page returned.
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        read(data, source: source) { body in
            switch kind(of: body, source: source) {
            case .geoJSON: GeoJSONReader.read(body, source: source, chunkSize: chunkSize, events: deliver)
            case .csv: ComCatCSV.read(body, source: source, chunkSize: chunkSize, events: deliver)
            case .other(let problem): CatalogPage(problem: problem)
            }
        }
    }
}

import Foundation
import QuakeCommon

extension CatalogFile {
    /// Reads `data` like `read(_:source:)`, handing the events of a GeoJSON FeatureCollection
    /// or a ComCat CSV over in chunks of `chunkSize` as they are read (see
    /// `GeoJSONReader.read(_:source:chunkSize:events:)`), so that a big file is never held as
    /// events all at once. Other kinds (a single Feature, damaged files) come back whole in
    /// the page returned.
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        guard let body = (try? InputFile.body(of: data, source: source)).map(withoutByteOrderMark),
              let first = firstSignificantByte(of: body) else {
            return read(data, source: source)
        }
        switch kind(first: first, start: body.prefix(4096)) {
        case .geoJSON: return GeoJSONReader.read(body, source: source, chunkSize: chunkSize, events: deliver)
        case .csv: return ComCatCSV.read(body, source: source, chunkSize: chunkSize, events: deliver)
        case .other(let problem): return CatalogPage(problem: "\(source): \(problem)")
        }
    }
}

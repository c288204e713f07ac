import Foundation
import QuakeCommon

extension CatalogFile {
    /// Reads `data` like `read(_:source:)`, handing the events of a GeoJSON FeatureCollection
    /// over in chunks of `chunkSize` as they are read (see
    /// `GeoJSONReader.read(_:source:chunkSize:events:)`). Other kinds (a single Feature, CSV,
    /// damaged files) come back whole in the page returned.
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        guard let body = (try? InputFile.body(of: data, source: source)).map(withoutByteOrderMark),
              let first = firstSignificantByte(of: body), isGeoJSON(first) else {
            return read(data, source: source)
        }
        return GeoJSONReader.read(body, source: source, chunkSize: chunkSize, events: deliver)
    }
}

import Foundation
import QuakeCommon

extension CatalogFile {
    /// Reads `data` like `read(_:source:)`, handing the events of a GeoJSON FeatureCollection
    /// over in chunks of `chunkSize` as they are read (see
    /// `GeoJSONReader.read(_:source:chunkSize:events:)`). Other kinds (a single Feature, CSV,
    /// damaged files) come back whole in the page returned.
    public static func read(_ data: Data, source: String, chunkSize: Int, events deliver: ([QuakeEvent]) -> Void) -> CatalogPage {
        guard let body = try? InputFile.body(of: data, source: source),
              body.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }) == 0x7B else {
            return read(data, source: source)
        }
        return GeoJSONReader.read(body, source: source, chunkSize: chunkSize, events: deliver)
    }
}

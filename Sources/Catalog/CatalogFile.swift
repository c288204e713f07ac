import Foundation
import QuakeCommon

/// Reads a ComCat file of any supported kind: GeoJSON FeatureCollection, a single
/// GeoJSON Feature, or ComCat CSV, each gzip or plain. The kind is found from the
/// content, not the file name.
public enum CatalogFile {
    /// Reads the file at `url`, within `InputFile`'s limits. Problems (unreadable, too large,
    /// empty, binary, wrong header)
    /// come back in `CatalogPage.problem`, never as a crash.
    public static func read(_ url: URL) -> CatalogPage {
        let data: Data
        do {
            data = try InputFile.bytes(of: url)
        } catch {
            return CatalogPage(problem: error.description)
        }
        return read(data, source: url.path)
    }

    /// Reads `data`, naming it `source` in messages.
    public static func read(_ data: Data, source: String) -> CatalogPage {
        let body: Data
        do {
            body = try InputFile.body(of: data, source: source)
        } catch let problem as InputFile.Problem {
            return CatalogPage(problem: problem.description)
        } catch {
            return CatalogPage(problem: "\(source): \(error)")
        }
        guard let first = body.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }) else {
            return CatalogPage(problem: "\(source): the file is empty")
        }
        if first == 0x7B { return GeoJSONReader.read(body, source: source) }
        if body.prefix(4096).contains(0) {
            return CatalogPage(problem: "\(source): a binary file, neither GeoJSON nor ComCat CSV")
        }
        return ComCatCSV.read(body, source: source)
    }
}

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
        var body: Data
        do {
            body = withoutByteOrderMark(try InputFile.body(of: data, source: source))
        } catch let problem as InputFile.Problem {
            return CatalogPage(problem: problem.description)
        } catch {
            return CatalogPage(problem: "\(source): \(error)")
        }
        guard let first = firstSignificantByte(of: body) else {
            return CatalogPage(problem: "\(source): the file is empty")
        }
        switch kind(first: first, start: body.prefix(4096)) {
        case .geoJSON: return GeoJSONReader.read(body, source: source)
        case .csv: return ComCatCSV.read(body, source: source)
        case .other(let problem): return CatalogPage(problem: "\(source): \(problem)")
        }
    }

    /// `data` without a UTF-8 byte-order mark at its start (editors on Windows write one).
    static func withoutByteOrderMark(_ data: Data) -> Data {
        data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
    }

    /// The first byte that is not a blank, or `nil` for a blank file.
    static func firstSignificantByte(of body: Data) -> UInt8? {
        body.first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
    }

    /// What a file is, found from its content (not its name).
    enum Kind {
        /// An object, or a text sequence's record separator.
        case geoJSON
        case csv
        /// Neither: the problem, in words.
        case other(String)
    }

    /// The kind of a file whose first significant byte is `first` and whose first bytes are `start`.
    static func kind(first: UInt8, start: some Collection<UInt8>) -> Kind {
        if first == 0x7B || first == 0x1E { return .geoJSON }
        if first == 0x5B { return .other("a JSON array, neither GeoJSON (a FeatureCollection, a Feature, one Feature per line, a text sequence) nor ComCat CSV") }
        if start.contains(0) { return .other("a binary file, neither GeoJSON nor ComCat CSV") }
        return .csv
    }
}

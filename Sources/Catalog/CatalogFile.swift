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

    /// Reads `data`, naming it `source` in messages. Damaged gzip is read up to the damage: the
    /// events before it are kept, and the damage is the page's problem.
    public static func read(_ data: Data, source: String) -> CatalogPage {
        read(data, source: source) { body in
            switch kind(of: body, source: source) {
            case .geoJSON: GeoJSONReader.read(body, source: source)
            case .csv: ComCatCSV.read(body, source: source)
            case .other(let problem): CatalogPage(problem: problem)
            }
        }
    }

    /// Reads `data` with `reader` given its text (decompressed, without a byte-order mark); gzip
    /// damage, or gzip past the limit of what it may inflate to, is the page's problem, after
    /// what came before it was read.
    static func read(_ data: Data, source: String, with reader: (Data) -> CatalogPage) -> CatalogPage {
        let body = InputFile.body(of: data)
        var page = reader(withoutByteOrderMark(body.text))
        if let damage = body.damage {
            // The cause, before what the cut made of the text (a feature or row that ends too soon).
            page.problem = "\(source): \(damage)"
        }
        return page
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
    /// Binary is a high share of control bytes (more than 1 in 32, blanks aside), not any: a stray
    /// NUL in one row of a text file rejects that row (as it does past the start), not the file.
    static func kind(first: UInt8, start: some Collection<UInt8>) -> Kind {
        if first == 0x7B || first == 0x1E { return .geoJSON }
        if first == 0x5B { return .other("a JSON array, neither GeoJSON (a FeatureCollection, a Feature, one Feature per line, a text sequence) nor ComCat CSV") }
        let controls = start.reduce(0) { $1 < 0x20 && $1 != 0x09 && $1 != 0x0A && $1 != 0x0D ? $0 + 1 : $0 }
        if controls * 32 > start.count { return .other("a binary file, neither GeoJSON nor ComCat CSV") }
        return .csv
    }

    /// The kind of the text `body` (named `source`): an empty one is `.other`, its problem named.
    static func kind(of body: Data, source: String) -> Kind {
        guard let first = firstSignificantByte(of: body) else { return .other("\(source): the file is empty") }
        switch kind(first: first, start: body.prefix(4096)) {
        case .other(let problem): return .other("\(source): \(problem)")
        case let known: return known
        }
    }
}

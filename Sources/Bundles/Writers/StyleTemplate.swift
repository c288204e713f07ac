import Foundation
import QuakeBundleFormat
import QuakeCommon

/// A user's own MapLibre style (`export --style FILE`, `export: style:` in the configuration),
/// written into the bundle as `style.json` in place of the default one, with its `quakes`
/// source pointed at the bundle's tiles (`pmtiles://quakes.pmtiles`, as the default style).
///
/// The template is read when the options are made, so a mistake is a usage error before
/// the export begins, and its digest is part of the bundle's options: editing it makes a
/// new bundle version.
public struct StyleTemplate: Hashable, Sendable {
    /// The style as `style.json` holds it (keys sorted, so the bytes are deterministic).
    public let text: String
    /// The sha256 of `text`.
    public let digest: String

    /// Reads and checks the template at `url` (`StyleValidator`: a MapLibre style, spec v8, with
    /// a `sources.quakes` entry; its layers draw from it with `source-layer` `quakes` and `clusters`).
    public init(contentsOf url: URL) throws {
        func fail(_ why: String) -> QuakeBakeError { QuakeBakeError("--style \(url.path): \(why)", exitStatus: .usage) }
        let data: Data
        do { data = try InputFile.bytes(of: url, maxBytes: StyleValidator.maxBytes, for: .style) } catch { throw fail("\(error)") }
        var style: [String: Any]
        do { style = try StyleValidator.validate(data).root } catch { throw fail(error.description) }
        var sources = style["sources"] as? [String: Any] ?? [:], quakes = sources["quakes"] as? [String: Any] ?? [:]
        quakes["type"] = "vector"
        quakes["url"] = "pmtiles://" + BundleFileName.pmtiles
        quakes.removeValue(forKey: "tiles")
        sources["quakes"] = quakes
        style["sources"] = sources
        let filled = try JSONSerialization.data(withJSONObject: style, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        text = String(decoding: filled, as: UTF8.self) + "\n"
        digest = SHA256.hex(Data(text.utf8))
    }
}

import Foundation

/// Points a style's sources at the published objects: a source `url` of
/// `pmtiles://<bundle file>` becomes `pmtiles://<public URL><key>`, a GeoJSON `data` naming a
/// bundle file becomes `<public URL><key>`. The text is otherwise left as it is.
enum StyleRewrite {
    static func pointing(_ style: String, at publicURL: URL, keys: [String: String]) -> String {
        let base = publicURL.absoluteString.hasSuffix("/") ? publicURL.absoluteString : publicURL.absoluteString + "/"
        var text = style
        for (name, key) in keys.sorted(by: { $0.key < $1.key }) {
            let quoted = NSRegularExpression.escapedPattern(for: name)
            let pattern = #"("(?:url|data)"\s*:\s*")(pmtiles://)?"# + quoted + #"""#
            guard let expression = try? NSRegularExpression(pattern: pattern) else { continue }
            let range = NSRange(text.startIndex..., in: text)
            let template = NSRegularExpression.escapedTemplate(for: base + key)
            text = expression.stringByReplacingMatches(in: text, range: range, withTemplate: "$1$2" + template + "\"")
        }
        return text
    }
}

/// USGS's text products (tectonic summaries, impact texts) as plain text: they come as HTML
/// fragments (`<h2>Tectonic Summary</h2><p>…</p>`), and HTML from outside is never passed on
/// as HTML. Paragraph-like elements become blank lines, line breaks and list items new lines,
/// every other tag is dropped (with the content of `script` and `style`), entities are
/// decoded, runs of blanks become one space.
///
/// Hand-written: no HTML parser is among the packages this project may use (SwiftSoup is not
/// in the mirror), Foundation's HTML import is Apple-only, and these fragments are short and
/// only need their text; what a full parser would add (a tree) is thrown away here anyway.
public enum PlainText {
    /// The text of `html`, at most `limit` characters (cut at a word, with `…`).
    public static func from(html: String, limit: Int = QuakeDetail.maximumTextLength) -> String {
        var out = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            out += decodeEntities(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else {
                rest = rest[rest.endIndex...]
                break
            }
            let tag = rest[rest.index(after: open)..<close]
            let name = tagName(tag)
            rest = rest[rest.index(after: close)...]
            if name == "script" || name == "style" {
                // Skip to the closing tag (or the end).
                if let end = rest.range(of: "</\(name)", options: .caseInsensitive) {
                    rest = rest[end.upperBound...]
                    if let gt = rest.firstIndex(of: ">") { rest = rest[rest.index(after: gt)...] }
                } else {
                    rest = rest[rest.endIndex...]
                }
            } else if blockElements.contains(name) {
                out += "\n\n"
            } else if lineElements.contains(name) {
                out += "\n"
            }
        }
        out += decodeEntities(rest)
        return tidy(out, limit: limit)
    }

    /// Elements whose start or end is a paragraph break.
    private static let blockElements: Set<String> = ["p", "/p", "div", "/div", "h1", "/h1", "h2", "/h2", "h3", "/h3", "h4", "/h4",
                                                     "h5", "/h5", "h6", "/h6", "ul", "/ul", "ol", "/ol", "table", "/table",
                                                     "blockquote", "/blockquote", "figure", "/figure"]
    /// Elements that are a line break.
    private static let lineElements: Set<String> = ["br", "br/", "li", "tr", "/tr"]

    /// `p` of `p class="x"`, `/p` of `/p`, lowercased.
    private static func tagName(_ tag: Substring) -> String {
        let trimmed = tag.drop { $0 == " " }
        let name = trimmed.prefix { !" \t\n\r>".contains($0) }
        return name.lowercased()
    }

    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
                                                  "ndash": "–", "mdash": "—", "rsquo": "’", "lsquo": "‘", "rdquo": "”",
                                                  "ldquo": "“", "deg": "°", "hellip": "…", "middot": "·", "times": "×"]

    /// `&amp;`, `&#233;`, `&#xE9;` and the common named entities decoded; others left as written.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest.index(after: amp)
            guard let semicolon = rest[after...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[after...]
                continue
            }
            let entity = rest[after..<semicolon]
            var decoded: String?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[String(entity)]
            }
            if let decoded {
                out += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                out += "&"
                rest = rest[after...]
            }
        }
        return out + rest
    }

    /// `line` with its control characters and no-break spaces as blanks, and its runs of blanks
    /// and tabs as one blank. (Written out with its types: as one chained expression it took the
    /// type checker seconds.)
    private static func blanked(_ line: Substring) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            scalars.append(scalar.properties.generalCategory == .control || scalar == "\u{A0}" ? " " : scalar)
        }
        return String(scalars).split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// Blanks collapsed, at most one blank line between paragraphs, no control characters, cut at `limit`.
    private static func tidy(_ text: String, limit: Int) -> String {
        var paragraphs: [String] = []
        for block in text.replacingOccurrences(of: "\r", with: "").components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n").map(blanked).filter { !$0.isEmpty }
            if !lines.isEmpty { paragraphs.append(lines.joined(separator: "\n")) }
        }
        let joined = paragraphs.joined(separator: "\n\n")
        guard joined.count > limit else { return joined }
        let cut = joined.prefix(limit)
        let word = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return word + "…"
    }
}

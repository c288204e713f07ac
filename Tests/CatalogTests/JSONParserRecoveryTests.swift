import Foundation
@testable import QuakeCatalog
import Testing

/// The JSON reader's recovery from a damaged array element, directly: the element is
/// skipped by bracket matching (strings respected) up to the ',' or ']' that ends it, and
/// reading goes on with the next; a cut-off document says so.
@Suite struct JSONParserRecoveryTests {
    /// Reads the elements of a JSON array, each as a value or, when damaged, as the syntax
    /// error's offset; returns them and whether the array ended properly.
    static func elements(_ text: String) throws -> (values: [String], ended: Bool) {
        try JSONParser.withParser(Data(text.utf8)) { parser in
            var values: [String] = []
            parser.skipWhitespace()
            try parser.expect(0x5B)
            while true {
                parser.skipWhitespace()
                let start = parser.offset
                do {
                    let value = try parser.parseValue()
                    if case .string(let s) = value { values.append(s) } else { values.append("\(value)") }
                } catch let error as JSONParser.SyntaxError {
                    values.append("damaged at \(error.offset)")
                    guard parser.skipElement(from: start) else { return (values, false) }
                }
                parser.skipWhitespace()
                if (try? parser.expect(0x2C)) != nil { continue }
                return (values, (try? parser.expect(0x5D)) != nil)
            }
        }
    }

    @Test func aDamagedElementIsSkippedAndTheNextOnesAreRead() throws {
        let text = #"["a", {"x": [1, 2, "]}", tru]}, "b", {"y": "q\"}]"}, "c"]"#
        let (values, ended) = try Self.elements(text)
        #expect(ended)
        #expect(values.count == 5, "\(values)")
        #expect(values[0] == "a" && values[2] == "b" && values[4] == "c")
        // The offset names the byte where the damage is: the `tru` of the second element.
        let damage = text.utf8.distance(from: text.utf8.startIndex, to: text.range(of: "tru]")!.lowerBound.samePosition(in: text.utf8)!)
        #expect(values[1] == "damaged at \(damage)" || values[1] == "damaged at \(damage + 3)", "\(values[1])")
        #expect(!values[3].hasPrefix("damaged"), "an escaped quote and brackets inside a string are not structure: \(values[3])")
    }

    @Test func aDocumentCutInsideADamagedElementSaysItEnded() throws {
        let (values, ended) = try Self.elements(#"["a", {"x": [1, 2, tru"#)
        #expect(values == ["a", values[1]] && values[1].hasPrefix("damaged"))
        #expect(!ended)
    }

    @Test func nonStandardNumbersAreReadNotFatal() throws {
        let (values, ended) = try Self.elements(#"[NaN, Infinity, -Infinity, 1e400, "z"]"#)
        #expect(ended && values.count == 5 && values[4] == "z", "\(values)")
    }
}

import QuakeCatalog
import Testing

/// A flood of bad items is counted whole and kept in part (memory and the store stay bounded).
@Suite struct RejectListTests {
    @Test func everyRejectIsCountedAndTheFirstThousandKept() {
        var first = RejectList(), second = RejectList()
        for i in 0..<1_500 { first.append(Reject(position: "line \(i)", reason: "time \(i) is not a valid time", raw: "x")) }
        for i in 0..<700 { second.append(Reject(position: "line \(1_500 + i)", reason: "latitude \(i) is outside", raw: "y")) }
        #expect(first.count == 1_500 && first.kept.count == RejectList.keptLimit && first.notKept == 500)
        first += second
        #expect(first.count == 2_200 && first.kept.count == RejectList.keptLimit)
        #expect(first.kept.last?.position == "line 999", "the first ones are kept, in order")
        #expect(first.commonKinds(2).map(\.kind) == ["time … is not a valid time", "latitude … is outside"])
        #expect(first.commonKinds(2).map(\.count) == [1_500, 700])
    }

    /// `Reject.kind` on bytes gives what the character-by-character version it replaced gave
    /// (kept here as the witness) on the reasons the readers write and on odd ones.
    @Test func aKindIsTheReasonWithoutItsValues() {
        func witness(_ reason: String) -> String {
            var kind = "", depth = 0, quoted = false
            for character in reason {
                switch character {
                case "(" where !quoted: if depth == 0 { kind += "(…" }; depth += 1
                case ")" where !quoted && depth > 0: depth -= 1; if depth == 0 { kind += ")" }
                case "\"" where depth == 0: quoted.toggle(); if quoted { kind += "\"…\"" }
                default: if depth == 0 && !quoted { kind.append(character) }
                }
            }
            return kind.split(separator: " ", omittingEmptySubsequences: false).map { Double($0) == nil ? String($0) : "…" }.joined(separator: " ")
        }
        let reasons = [
            "time 1e300 is not a valid time (1970-01-01T00:00:02.-2147483648Z)", "mag 1e+19 is outside the plausible range -5.0…10.0",
            "broken JSON: expected a value, found 't' at byte 27442", "id \"x,y\" holds a comma, the separator of ids lists: not an event id",
            "property sig 4.611686018427388e+18 is too large (whole numbers up to 9e15)", "longitude nan is not finite", "depth inf, -inf, +3, .5, -0",
            "row has 200,001 cells, the header has 22", "unbalanced (a (b) c", "odd \"quote", "nested (a \"b) c\" d) e", "  two  spaces ",
            "number-like words: 1e, e5, 0x1p3, Infinity, NaN, nan., 12abc, -", "ünïcödé “quotes” ‘and’ … 3", "",
        ]
        for reason in reasons {
            #expect(Reject(position: "p", reason: reason, raw: "").kind == witness(reason), "\(reason)")
        }
    }
}

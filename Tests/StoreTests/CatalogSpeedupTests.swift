import QuakeCatalog
import Testing

/// The reader speed-ups made for `index` change no result.
@Suite struct CatalogSpeedupTests {
    @Test func commaListsSplitTheSameOnBytesAsByCharacter() {
        for text in [",us7000abcd,ci40123456,", "", ",", ",,a,,b,,", "a", ",é,ß,", ",a\u{301},b,", ",\u{301}x,"] {
            let byCharacter = text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
            #expect(CommaList.parse(text) == byCharacter, "\(text)")
        }
        #expect(CommaList.parse(nil) == [])
    }
}

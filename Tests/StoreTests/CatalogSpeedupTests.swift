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

    /// A list has an item when one of its items is it, not when the text holds it with commas
    /// around (`"x,y"` in `",a,x,y,"`: the merge that once deleted a quake).
    @Test func commaListsHoldItemsNotSubstrings() {
        #expect(CommaList.contains(",a,x,y,", "x") && CommaList.contains(",a,x,y,", "y") && CommaList.contains(",é,x,", "é"))
        #expect(!CommaList.contains(",a,x,y,", "x,y") && !CommaList.contains(",a,x,y,", "") && !CommaList.contains(",é,x,y,", "x,y"))
    }
}

/// USGS writes lists inside one string, wrapped in commas: `",us7000abcd,ci40123456,"`.
public enum CommaList {
    /// `",a,b,"` → `["a", "b"]`; empty items dropped.
    public static func parse(_ text: String?) -> [String] {
        guard var text else { return [] }
        // ASCII text (every real list) is split on bytes, several times faster than by
        // Character; the result is the same, since ASCII has no combining marks.
        let ascii = text.withUTF8 { bytes -> [String]? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).map {
                String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
            }
        }
        return ascii ?? text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    }

    /// Whether the list `text` (`",a,b,"`) has `item` among its items, compared item by item:
    /// never as a substring of the text, where an item holding a comma (`"x,y"`) would match
    /// two items of another list (`",x,y,"`).
    /// Split as `parse` splits, without building the list for ASCII text.
    public static func contains(_ text: String, _ item: String) -> Bool {
        var text = text
        let ascii = text.withUTF8 { bytes -> Bool? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).contains { $0.elementsEqual(item.utf8) }
        }
        return ascii ?? parse(text).contains(item)
    }

    /// `["a", "b"]` → `",a,b,"`; an empty list is `""`.
    public static func format(_ items: [String]) -> String {
        items.isEmpty ? "" : "," + items.joined(separator: ",") + ","
    }
}

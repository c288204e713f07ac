/// USGS writes lists inside one string, wrapped in commas: `",us7000abcd,ci40123456,"`.
public enum CommaList {
    /// `",a,b,"` → `["a", "b"]`; empty items dropped.
    public static func parse(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    }

    /// `["a", "b"]` → `",a,b,"`; an empty list is `""`.
    public static func format(_ items: [String]) -> String {
        items.isEmpty ? "" : "," + items.joined(separator: ",") + ","
    }
}

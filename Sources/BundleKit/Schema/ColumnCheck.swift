import QuakeBundleFormat

/// A column as this library checks it: the format's declaration (``BundleColumn``, in
/// QuakeBundleFormat: name, type, kind, bounds, nullability), never what the file being checked
/// says of itself. A file whose columns differ from these is refused, so every identifier in
/// the SQL this library runs comes from these declarations.
extension BundleColumn {
    /// The column's name quoted as an SQL identifier.
    var quoted: String { SQL.identifier(name) }

    /// An SQL condition that holds when the column's value (in `alias`) is one this column may hold.
    func valueCheck(_ alias: String) -> String {
        let value = "\(alias).\(quoted)"
        let check: String
        switch kind {
        case .integer(let range):
            check = "typeof(\(value)) = 'integer' AND \(value) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case .real(let range):
            check = "typeof(\(value)) IN ('real', 'integer') AND \(value) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        case .text(let maxBytes):
            check = "typeof(\(value)) = 'text' AND length(CAST(\(value) AS BLOB)) <= \(maxBytes)"
        case .blob(let maxBytes):
            check = "typeof(\(value)) = 'blob' AND length(\(value)) <= \(maxBytes)"
        }
        return nullable ? "(\(value) IS NULL OR (\(check)))" : "(\(check))"
    }
}

/// SQL text made from this library's own declarations.
enum SQL {
    /// `name` as a quoted identifier (`"` doubled), so that no name can end the quotes.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `names` quoted and joined with commas, each after `prefix` (`t.`) when given.
    static func list(_ names: [String], prefix: String = "") -> String {
        names.map { prefix + identifier($0) }.joined(separator: ", ")
    }

    /// `text` as a quoted string literal (`'` doubled).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

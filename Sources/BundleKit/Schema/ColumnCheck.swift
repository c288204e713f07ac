/// One column as this library expects it in a bundle file: its name, what its values may be, and
/// the bounds they must keep. Declared here, never read from the file being checked: a file
/// whose columns differ from these is refused, so every identifier in the SQL this library
/// runs comes from these declarations.
struct ColumnSpec: Sendable, Equatable {
    /// The kinds of value SQLite stores, with the bounds a value must keep.
    enum Kind: Sendable, Equatable {
        case integer(ClosedRange<Int64>)
        /// Integers are accepted too (SQLite stores a whole REAL as written, by affinity).
        case real(ClosedRange<Double>)
        /// At most this many bytes of UTF-8.
        case text(maxBytes: Int)
        case blob(maxBytes: Int)
    }

    let name: String
    /// The type the file declares for it (`CREATE TABLE … (name TYPE …)`), as SQLite reports it.
    let declaredType: String
    let kind: Kind
    let nullable: Bool

    /// Bounds for columns whose values have no narrower meaning: any 53-bit integer, any finite
    /// real up to 10^15, text and blobs up to a megabyte.
    static let anyInteger: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    static let anyReal: ClosedRange<Double> = -1e15...1e15
    static let textBytes = 1 << 20

    static func integer(_ name: String, _ range: ClosedRange<Int64> = anyInteger, nullable: Bool = true) -> ColumnSpec {
        ColumnSpec(name: name, declaredType: "INTEGER", kind: .integer(range), nullable: nullable)
    }

    static func real(_ name: String, _ range: ClosedRange<Double> = anyReal, nullable: Bool = true) -> ColumnSpec {
        ColumnSpec(name: name, declaredType: "REAL", kind: .real(range), nullable: nullable)
    }

    static func text(_ name: String, maxBytes: Int = textBytes, nullable: Bool = true) -> ColumnSpec {
        ColumnSpec(name: name, declaredType: "TEXT", kind: .text(maxBytes: maxBytes), nullable: nullable)
    }

    static func blob(_ name: String, maxBytes: Int, nullable: Bool = true) -> ColumnSpec {
        ColumnSpec(name: name, declaredType: "BLOB", kind: .blob(maxBytes: maxBytes), nullable: nullable)
    }

    /// The same column with no declared type (an R-tree's columns and SQLite's own tables have none).
    var untyped: ColumnSpec { ColumnSpec(name: name, declaredType: "", kind: kind, nullable: nullable) }

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

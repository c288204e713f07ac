/// One column of a table of a bundle's SQLite files (``BundleTable``), declared once: the
/// export makes its `CREATE TABLE` text from it (``definition``), and the app library
/// (QuakeBundleKit) checks a file against it (its kind, bounds and nullability) before it
/// trusts a row: a file whose columns differ is refused.
public struct BundleColumn: Sendable, Equatable {
    /// The kinds of value a column holds, with the bounds a value must keep.
    public enum Kind: Sendable, Equatable {
        case integer(ClosedRange<Int64>)
        /// Integers are accepted too (SQLite stores a whole REAL as written, by affinity).
        case real(ClosedRange<Double>)
        /// At most this many bytes of UTF-8.
        case text(maxBytes: Int)
        case blob(maxBytes: Int)
    }

    /// Whether the column may be NULL, and whether its `CREATE` text says so.
    public enum Null: Sendable, Equatable {
        /// NULL is a value like any other.
        case allowed
        /// The `CREATE` text says `NOT NULL`.
        case notNull
        /// The `CREATE` text says nothing (as MBTiles' tables have it, or a key), but a reader refuses NULL.
        case refused
    }

    public let name: String
    public let kind: Kind
    public let null: Null
    /// Whether the `CREATE` text makes it the table's `PRIMARY KEY`.
    public let primaryKey: Bool
    /// Whether the `CREATE` text gives its type (an R-tree's columns have none).
    public let typed: Bool

    /// Bounds for columns whose values have no narrower meaning: any 53-bit integer, any finite
    /// real up to 10^15, text up to a megabyte.
    public static let anyInteger: ClosedRange<Int64> = -(1 << 53)...(1 << 53)
    public static let anyReal: ClosedRange<Double> = -1e15...1e15
    public static let textBytes = 1 << 20

    public static func integer(_ name: String, _ range: ClosedRange<Int64> = anyInteger, _ null: Null = .allowed, primaryKey: Bool = false) -> BundleColumn {
        BundleColumn(name: name, kind: .integer(range), null: null, primaryKey: primaryKey, typed: true)
    }

    public static func real(_ name: String, _ range: ClosedRange<Double> = anyReal, _ null: Null = .allowed) -> BundleColumn {
        BundleColumn(name: name, kind: .real(range), null: null, primaryKey: false, typed: true)
    }

    public static func text(_ name: String, maxBytes: Int = textBytes, _ null: Null = .allowed, primaryKey: Bool = false) -> BundleColumn {
        BundleColumn(name: name, kind: .text(maxBytes: maxBytes), null: null, primaryKey: primaryKey, typed: true)
    }

    public static func blob(_ name: String, maxBytes: Int, _ null: Null = .allowed) -> BundleColumn {
        BundleColumn(name: name, kind: .blob(maxBytes: maxBytes), null: null, primaryKey: false, typed: true)
    }

    /// The same column with no type in the `CREATE` text (an R-tree's).
    public var untyped: BundleColumn { BundleColumn(name: name, kind: kind, null: null, primaryKey: primaryKey, typed: false) }

    /// Whether a reader accepts NULL in it.
    public var nullable: Bool { null == .allowed }

    /// The type the `CREATE` text gives it, as SQLite reports it (`PRAGMA table_info`); empty when untyped.
    public var declaredType: String {
        guard typed else { return "" }
        switch kind {
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    /// The column as the `CREATE` text writes it: `name TYPE`, then `NOT NULL` or `PRIMARY KEY`.
    public var definition: String {
        [name, declaredType, null == .notNull ? "NOT NULL" : "", primaryKey ? "PRIMARY KEY" : ""].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A table of a bundle's SQLite files or of a delta, declared once (its columns, how SQLite
/// stores it, a rule its rows keep): the export runs its ``create`` text, and `sqlite_master`
/// keeps that text as it was written (the export compares a file's with it before it patches
/// the file in place, so a byte of it changed makes every existing bundle a stranger); the app
/// library checks a file against the same declaration.
public struct BundleTable: Sendable {
    /// How SQLite stores the table.
    public enum Storage: Sendable, Equatable {
        case rowid
        case withoutRowID
        /// An R-tree virtual table (with its three shadow tables, which SQLite makes).
        case rtree
    }

    /// How the `CREATE` text lays its columns out.
    public enum Layout: Sendable, Equatable {
        /// `CREATE TABLE t (a TEXT, b TEXT)`.
        case oneLine
        /// A column a line, indented two spaces (the app database's `events`).
        case columnPerLine
    }

    public let name: String
    /// The columns in table order.
    public let columns: [BundleColumn]
    public let storage: Storage
    /// A condition every row keeps, over its columns in alias `t` (a tile's column and row
    /// within its zoom); `nil`: none beyond its columns'.
    public let rowCheck: String?
    public let layout: Layout

    public init(_ name: String, _ columns: [BundleColumn], storage: Storage = .rowid, rowCheck: String? = nil, layout: Layout = .oneLine) {
        self.name = name
        self.columns = columns
        self.storage = storage
        self.rowCheck = rowCheck
        self.layout = layout
    }

    /// The same columns and rules under another name (`delta_info` is `info`'s twin).
    public func renamed(_ name: String) -> BundleTable {
        BundleTable(name, columns, storage: storage, rowCheck: rowCheck, layout: layout)
    }

    /// The column names in table order.
    public var columnNames: [String] { columns.map(\.name) }

    /// The statement that makes the table, as `sqlite_master` keeps it.
    public var create: String {
        switch (storage, layout) {
        case (.rtree, _):
            return "CREATE VIRTUAL TABLE \(name) USING rtree (\(columnNames.joined(separator: ", ")))"
        case (_, .columnPerLine):
            return "CREATE TABLE \(name) (\n  " + columns.map(\.definition).joined(separator: ",\n  ") + ")" + suffix
        case (_, .oneLine):
            return "CREATE TABLE \(name) (" + columns.map(\.definition).joined(separator: ", ") + ")" + suffix
        }
    }

    private var suffix: String { storage == .withoutRowID ? " WITHOUT ROWID" : "" }
}

/// An index of a bundle table, declared once.
public struct BundleIndex: Sendable, Equatable {
    public let name: String
    public let table: String
    public let columns: [String]
    public let unique: Bool

    public init(_ name: String, on table: BundleTable, _ columns: [String], unique: Bool = false) {
        self.name = name
        self.table = table.name
        self.columns = columns
        self.unique = unique
    }

    /// The statement that makes the index, as `sqlite_master` keeps it.
    public var create: String {
        "CREATE \(unique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))"
    }
}

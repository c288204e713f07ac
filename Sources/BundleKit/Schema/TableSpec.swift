import QuakeBundleFormat

/// One table as this library expects it in a bundle file or a delta: the format's declaration
/// (``BundleTable``: columns, storage, the rule its rows keep), and whether a file may lack it.
struct TableSpec: Sendable {
    let declaration: BundleTable
    /// Whether a file may lack the table (one added to the format later: files made before it have none).
    let optional: Bool

    init(_ declaration: BundleTable, optional: Bool = false) {
        self.declaration = declaration
        self.optional = optional
    }

    var name: String { declaration.name }
    var storage: BundleTable.Storage { declaration.storage }
    /// The columns in table order (a key named `rowid` in a rowid table is its rowid alias).
    var columns: [BundleColumn] { declaration.columns }
    /// An extra condition every row must meet, over the row's columns in alias `t`.
    var rowCheck: String? { declaration.rowCheck }

    /// The column names in table order.
    var columnNames: [String] { declaration.columnNames }

    /// The table's name quoted as an SQL identifier.
    var quoted: String { SQL.identifier(name) }

    /// The names SQLite gives the shadow tables of an R-tree.
    var shadowTables: [String] {
        storage == .rtree ? ["_node", "_parent", "_rowid"].map { name + $0 } : []
    }
}

/// The schema a whole file must have: its tables, and the indexes it may have.
struct FileSchema: Sendable {
    /// What the file is, for messages (`the app database`, `a rows delta`).
    let role: String
    let tables: [TableSpec]
    /// Index names the file may hold (beyond SQLite's own automatic ones for its tables' keys).
    let indexes: Set<String>

    func table(_ name: String) -> TableSpec? { tables.first { $0.name == name } }
}

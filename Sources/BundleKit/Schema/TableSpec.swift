/// One table as this library expects it in a bundle file or a delta.
struct TableSpec: Sendable {
    /// How SQLite stores the table.
    enum Storage: Sendable, Equatable {
        case rowid
        case withoutRowID
        /// An R-tree virtual table (with its three shadow tables, which SQLite makes).
        case rtree
    }

    let name: String
    let storage: Storage
    /// The columns in table order (a key named `rowid` in a rowid table is its rowid alias).
    let columns: [ColumnSpec]
    /// An extra condition every row must meet, over the row's columns in alias `t` (e.g. a tile
    /// column within its zoom), written here, never read from a file.
    let rowCheck: String?
    /// Whether a file may lack the table (one added to the format later: files made before it have none).
    let optional: Bool

    init(_ name: String, _ columns: [ColumnSpec], storage: Storage = .rowid, rowCheck: String? = nil, optional: Bool = false) {
        self.name = name
        self.storage = storage
        self.columns = columns
        self.rowCheck = rowCheck
        self.optional = optional
    }

    /// The column names in table order.
    var columnNames: [String] { columns.map(\.name) }

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

import QuakeBundleFormat

/// Checks an SQLite file against the schema this library declares for it (``BundleSchema``),
/// before anything of it is used: only the declared tables and indexes (no trigger, no view, no
/// other table), each with exactly the declared columns in order, its pages sound, its R-trees
/// sound, no more rows than the limit, and every value of the declared kind within its bounds.
///
/// The file is read through a connection with `trusted_schema` off, as the schema `database`
/// (`main`, or the name it is attached under); nothing of it is run, only read.
struct SchemaCheck {
    let connection: SQLiteConnection
    let database: String
    let schema: FileSchema
    /// The most rows a table may hold.
    let maxRows: Int64

    /// Throws ``Refusal`` naming the first thing that differs from the declared schema.
    func run() throws {
        let present = try objects()
        for table in schema.tables {
            guard present.contains(table.name) else {
                if table.optional { continue }
                throw Refusal("\(schema.role) has no table \(table.name)")
            }
            try columns(of: table)
        }
        try pages()
        for table in schema.tables where present.contains(table.name) {
            try values(of: table)
        }
    }

    /// A file that is not as declared, and why.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private var qualified: String { SQL.identifier(database) }

    /// The file's tables (checked: only declared objects); returns their names.
    private func objects() throws -> Set<String> {
        let shadows = Set(schema.tables.flatMap(\.shadowTables))
        var tables: Set<String> = []
        try connection.query("SELECT type, name, tbl_name, sql FROM \(qualified).sqlite_master") { row in
            let type = row.text(0) ?? "", name = row.text(1) ?? "", owner = row.text(2) ?? ""
            switch type {
            case "table":
                if let table = schema.table(name) {
                    try storage(of: table, sql: row.text(3) ?? "")
                    tables.insert(name)
                } else if !shadows.contains(name) {
                    throw Refusal("\(schema.role) holds a table \(Self.shown(name)) that it should not")
                }
            case "index":
                let automatic = name.hasPrefix("sqlite_autoindex_\(owner)_")
                guard schema.table(owner) != nil || shadows.contains(owner), automatic || schema.indexes.contains(name) else {
                    throw Refusal("\(schema.role) holds an index \(Self.shown(name)) on \(Self.shown(owner)) that it should not")
                }
            default:
                throw Refusal("\(schema.role) holds a \(Self.shown(type)) \(Self.shown(name)) (it should hold tables and their indexes only)")
            }
        }
        return tables
    }

    /// Checks that `table` is stored as declared (an R-tree, a rowid table, a table without rowid).
    private func storage(of table: TableSpec, sql: String) throws {
        func compact(_ text: String) -> String { text.uppercased().filter { !$0.isWhitespace && $0 != "\"" } }
        let isVirtual = compact(sql).hasPrefix("CREATEVIRTUALTABLE")
        switch table.storage {
        case .rtree:
            // The format's own statement, quotes, case and spacing aside.
            guard compact(sql) == compact(table.declaration.create) else { throw Refusal("\(schema.role): \(table.name) is not the R-tree it should be") }
        case .rowid, .withoutRowID:
            let withoutRowID = compact(sql).hasSuffix("WITHOUTROWID")
            guard !isVirtual, withoutRowID == (table.storage == .withoutRowID) else {
                throw Refusal("\(schema.role): \(table.name) is not stored as it should be (\(isVirtual ? "a virtual table" : withoutRowID ? "without rowid" : "with a rowid"))")
            }
        }
    }

    /// Checks that `table` has exactly the declared columns, in order, none hidden or generated.
    private func columns(of table: TableSpec) throws {
        let found = try connection.rows("PRAGMA \(qualified).table_xinfo(\(SQL.identifier(table.name)))") {
            (name: $0.text(1) ?? "", type: $0.text(2) ?? "", hidden: $0.integer(6) ?? 0)
        }
        let typed = table.storage != .rtree  // SQLite reports an R-tree's column types itself
        for (number, (column, spec)) in zip(found, table.columns).enumerated()
        where column.name != spec.name || column.hidden != 0 || (typed && column.type.uppercased() != spec.declaredType) {
            throw Refusal("\(schema.role): column \(number + 1) of \(table.name) is \(Self.shown(column.name)) \(column.type)"
                          + "\(column.hidden != 0 ? " (hidden)" : ""), not \(spec.name) \(spec.declaredType)")
        }
        guard found.count == table.columns.count else {
            let more = found.count > table.columns.count
            let names = more ? found.dropFirst(table.columns.count).map { Self.shown($0.name) } : table.columns.dropFirst(found.count).map(\.name)
            throw Refusal("\(schema.role): \(table.name) has \(found.count) columns, not \(table.columns.count) (\(more ? "more" : "missing"): \(names.joined(separator: ", ")))")
        }
    }

    /// Checks the file's pages and its R-trees.
    private func pages() throws {
        let problems = try connection.rows("PRAGMA \(qualified).quick_check(5)") { $0.text(0) ?? "" }
        guard problems == ["ok"] else {
            throw Refusal("\(schema.role) is damaged: \(problems.prefix(3).map { Self.shown($0) }.joined(separator: "; "))")
        }
        for table in schema.tables where table.storage == .rtree {
            // rtreecheck() looks at `main` or at the schema named in its first argument.
            let verdict = try connection.text("SELECT rtreecheck(?, ?)", [.text(database), .text(table.name)]) ?? ""
            guard verdict == "ok" else { throw Refusal("\(schema.role): its R-tree \(table.name) is damaged: \(Self.shown(verdict))") }
        }
    }

    /// Checks the row count and every value of `table`.
    private func values(of table: TableSpec) throws {
        guard table.storage != .rtree else { return }  // its entries are checked by rtreecheck()
        var checks = table.columns.map { (what: "column \($0.name)", sql: $0.valueCheck("t")) }
        if table.storage == .rowid {
            checks.append((what: "its rowids", sql: "t.rowid BETWEEN \(AppDatabaseSchema.rowids.lowerBound) AND \(AppDatabaseSchema.rowids.upperBound)"))
        }
        if let rowCheck = table.rowCheck { checks.append((what: "its rows' consistency (\(rowCheck))", sql: rowCheck)) }
        let sums = checks.map { "coalesce(sum(NOT (\($0.sql))), 0)" }.joined(separator: ", ")
        var counts: [Int64] = []
        try connection.query("SELECT count(*), \(sums) FROM \(qualified).\(table.quoted) AS t") { row in
            counts = (0...Int32(checks.count)).map { row.integer($0) ?? 0 }
        }
        guard let rows = counts.first, rows <= maxRows else {
            throw Refusal("\(schema.role): \(table.name) holds \(counts.first ?? 0) rows, more than the \(maxRows) allowed")
        }
        for (check, bad) in zip(checks, counts.dropFirst()) where bad > 0 {
            throw Refusal("\(schema.role): \(table.name) has \(bad) row\(bad == 1 ? "" : "s") whose \(check.what) is out of bounds or of the wrong type")
        }
    }

    /// A name from the file, as a message may show it: quoted, at most 60 characters, control characters escaped.
    static func shown(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return "`" + cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "`"
    }
}

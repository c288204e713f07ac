import Foundation
import QuakeBundleFormat

/// Applies one delta file to a copy of the bundle file it changes, in one transaction, after
/// checking it: its schema against the one this library declares (``SchemaCheck``), its pages,
/// every value's kind and bounds, and the versions it joins (its `delta_info`, and for the app
/// database the version its `info` names). The SQL is made from the declarations alone, every
/// identifier quoted. A delta that fails a check leaves the copy as it was.
struct DeltaApplier {
    let file: SyncedFile
    let limits: BundleClientLimits

    /// Applies `delta` (a file checked against the pointer) to the copy at `target`, which holds
    /// version `base`, bringing it to `next`.
    func apply(_ delta: URL, to target: URL, base: String, next: String) throws {
        let db = try SQLiteConnection(target, readOnly: false)
        try db.execute("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
        try db.query("ATTACH DATABASE ? AS delta", [.text(SQLiteConnection.uri(delta, readOnly: true, immutable: true))]) { _ in }
        try SchemaCheck(connection: db, database: "delta", schema: file.deltaSchema, maxRows: limits.rows).run()
        let joins = try db.rows("SELECT name, value FROM delta.delta_info") { ($0.text(0) ?? "", $0.text(1) ?? "") }
        let versions = Dictionary(joins, uniquingKeysWith: { a, _ in a })
        guard joins.count == 2, versions["base_version"] == base, versions["bundle_version"] == next else {
            throw SchemaCheck.Refusal("it joins \(Self.shown(versions["base_version"])) → \(Self.shown(versions["bundle_version"])), not \(base) → \(next)")
        }
        if file.name == BundleSchema.appDatabase.name {
            let held = try heldVersion(db)
            guard held == base else { throw SchemaCheck.Refusal("the copy of \(file.name) holds version \(Self.shown(held)), not the delta's base \(base)") }
        }
        try db.execute("BEGIN IMMEDIATE")
        do {
            for table in file.synced { try sync(table, db) }
            if let index = file.spatialIndex { try sync(index, db) }
            if file.name == BundleSchema.appDatabase.name { try checkRows(db, version: next) }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
        try db.execute("DETACH DATABASE delta")
    }

    /// The version the app database open on `db` names in its `info`.
    private func heldVersion(_ db: SQLiteConnection) throws -> String? {
        try db.text("SELECT value FROM main.\(BundleSchema.info.table.quoted) WHERE name = '\(AppDatabaseSchema.Info.bundleVersion)'")
    }

    /// Applies the delta's rows of `table`: removed keys, then new and changed rows; a table
    /// without deletions is replaced whole. A table the format added later (`optional`) that
    /// neither file has is passed over.
    private func sync(_ table: SyncedTable, _ db: SQLiteConnection) throws {
        let inDelta = try has(table.table.name, "delta", db), inFile = try has(table.table.name, "main", db)
        guard inDelta || inFile else { return }  // only an optional table may be absent (SchemaCheck)
        guard inDelta && inFile else {
            throw SchemaCheck.Refusal("the table \(table.table.name) is in \(inDelta ? "the delta but not the copy" : "the copy but not the delta")")
        }
        let name = table.table.quoted, columns = table.table.columnNames
        let withRowid = table.key == ["rowid"] ? ["rowid"] : []
        let list = SQL.list(withRowid + columns)
        if let deletions = table.deletionTable {
            let key = table.key == ["rowid"] ? "rowid" : "(\(SQL.list(table.key)))"
            try db.execute("""
                DELETE FROM main.\(name) WHERE \(key) IN (SELECT \(SQL.list(table.key)) FROM delta.\(deletions.quoted));
                INSERT OR REPLACE INTO main.\(name) (\(list)) SELECT \(list) FROM delta.\(name);
                """)
        } else {
            try db.execute("DELETE FROM main.\(name); INSERT INTO main.\(name) (\(list)) SELECT \(list) FROM delta.\(name);")
        }
    }

    /// Applies the delta's entries of the R-tree: those of removed and changed rows go, the delta's come.
    private func sync(_ index: SpatialIndex, _ db: SQLiteConnection) throws {
        guard let rows = file.synced.first(where: { $0.table.name == index.rows }), let deletions = rows.deletionTable else { return }
        let name = SQL.identifier(index.name), list = SQL.list(index.columns)
        try db.execute("""
            DELETE FROM main.\(name) WHERE id IN (SELECT rowid FROM delta.\(deletions.quoted));
            DELETE FROM main.\(name) WHERE id IN (SELECT rowid FROM delta.\(rows.table.quoted));
            INSERT INTO main.\(name) (\(list)) SELECT \(list) FROM delta.\(name);
            """)
    }

    /// After the rows: the app database names `version`, holds as many rows as its `info` says,
    /// and one R-tree entry for each.
    private func checkRows(_ db: SQLiteConnection, version: String) throws {
        let held = try heldVersion(db)
        guard held == version else { throw SchemaCheck.Refusal("once applied, the app database names version \(Self.shown(held)), not \(version)") }
        let said = try db.text("SELECT value FROM main.\(BundleSchema.info.table.quoted) WHERE name = '\(AppDatabaseSchema.Info.events)'").flatMap { Int64($0) }
        let rows = try db.integer("SELECT count(*) FROM main.\(BundleSchema.events.table.quoted)") ?? 0
        let entries = try db.integer("SELECT count(*) FROM main.\(SQL.identifier(BundleSchema.rtree.name))") ?? 0
        guard said == nil || said == rows, entries == rows else {
            throw SchemaCheck.Refusal("once applied, the app database holds \(rows) rows and \(entries) R-tree entries, its info says \(said.map(String.init) ?? "?")")
        }
    }

    private func has(_ table: String, _ database: String, _ db: SQLiteConnection) throws -> Bool {
        try db.integer("SELECT count(*) FROM \(SQL.identifier(database)).sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]) == 1
    }

    private static func shown(_ text: String?) -> String { text.map { SchemaCheck.shown($0) } ?? "none" }
}

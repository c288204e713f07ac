import Foundation
import QuakeBundleFormat
@testable import QuakeBundleKit
import Testing
import TestSupport

/// Issue 49.2: the export's `CREATE` statements and this library's check are made from the same
/// declarations (QuakeBundleFormat), so a file made of exactly those statements passes the
/// check, for the two synced files and their deltas, and one whose R-tree differs is refused.
@Suite struct SchemaDeclarationTests {
    static func check(_ statements: [String], against schema: FileSchema, in dir: TemporaryDirectory, _ name: String) throws {
        let url = dir.path(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)  // the library opens files that exist; SQLite takes an empty one as new
        let db = try SQLiteConnection(url, readOnly: false)
        try db.execute(statements.map { $0 + ";" }.joined(separator: "\n"))
        try SchemaCheck(connection: db, database: "main", schema: schema, maxRows: 10).run()
    }

    static let appDatabase = [AppDatabaseSchema.eventsTable] + AppDatabaseSchema.eventIndexes
        + [AppDatabaseSchema.infoTable, AppDatabaseSchema.rtreeTable, AppDatabaseSchema.detailsTable]

    @Test func filesMadeOfTheFormatsStatementsPassTheCheck() throws {
        let dir = TemporaryDirectory("schema-declarations")
        try Self.check(Self.appDatabase, against: BundleSchema.appDatabase.fileSchema, in: dir, "app.sqlite")
        try Self.check(MBTiles.schema, against: BundleSchema.tiles.fileSchema, in: dir, "tiles.mbtiles")
        try Self.check([AppDatabaseSchema.eventsTable, DeltaSchema.rtreeTable, DeltaSchema.deletedEventsTable, AppDatabaseSchema.infoTable,
                        AppDatabaseSchema.detailsTable, DeltaSchema.deletedDetailsTable, DeltaSchema.infoTable],
                       against: BundleSchema.appDatabase.deltaSchema, in: dir, "rows-delta.sqlite")
        try Self.check(MBTiles.schema + [DeltaSchema.deletedTilesTable, DeltaSchema.deletedTilesIndex, DeltaSchema.infoTable],
                       against: BundleSchema.tiles.deltaSchema, in: dir, "tiles-delta.mbtiles")
    }

    @Test func anotherRTreeOrAnotherColumnIsRefused() throws {
        let dir = TemporaryDirectory("schema-declarations-refused")
        let otherRTree = Self.appDatabase.map {
            $0 == AppDatabaseSchema.rtreeTable ? "CREATE VIRTUAL TABLE events_rtree USING rtree (id, min_x, max_x, min_y, max_y)" : $0
        }
        let refusal = #expect(throws: SchemaCheck.Refusal.self) {
            try Self.check(otherRTree, against: BundleSchema.appDatabase.fileSchema, in: dir, "rtree.sqlite")
        }
        #expect(refusal?.description == "the app database: events_rtree is not the R-tree it should be")
        let otherColumn = Self.appDatabase.map { $0 == AppDatabaseSchema.detailsTable ? "CREATE TABLE details (id TEXT PRIMARY KEY, json BLOB)" : $0 }
        let column = #expect(throws: SchemaCheck.Refusal.self) {
            try Self.check(otherColumn, against: BundleSchema.appDatabase.fileSchema, in: dir, "column.sqlite")
        }
        #expect(column?.description.contains("column 2 of details is `json` BLOB, not json TEXT") == true, "\(String(describing: column))")
    }
}

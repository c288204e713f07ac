import Foundation
import GRDB
import Logging
import QuakeBundleFormat
import QuakeCatalog
import QuakeCommon
import QuakeSQLite

/// The quakes' details of a bundle: the summaries (`QuakeDetail`'s JSON, docs/details.md) of the
/// selected events that have them, by event id, as the store holds them.
public struct BundleDetails: Sendable {
    /// (event id, summary JSON), by id.
    let rows: [(id: String, json: String)]

    /// The store's rows as a bundle carries them: each summary read and written again (`JSON`),
    /// so that what goes into a page or an app is one JSON object whatever the store held; a row
    /// that is not one (the store written behind quake-bake's back) is left out with a warning.
    static func checked(_ stored: [(id: String, summary: String)], logger: Logger) -> BundleDetails {
        var rows: [(id: String, json: String)] = []
        rows.reserveCapacity(stored.count)
        var bad: [String] = []
        for row in stored {
            guard let json = JSON.parse(Data(row.summary.utf8)), case .object = json else {
                bad.append(row.id)
                continue
            }
            rows.append((row.id, json.text))
        }
        if !bad.isEmpty {
            logger.warning("\(Format.count(bad.count, "quake")) with details in the store that are not a JSON object, left out of the bundle: \(bad.prefix(3).joined(separator: ", "))")
        }
        return BundleDetails(rows: rows)
    }

    /// What the details add to the bundle version: a digest of every row.
    var digest: String {
        var text = Data()
        for row in rows {
            text.append(contentsOf: row.id.utf8)
            text.append(0)
            text.append(contentsOf: row.json.utf8)
            text.append(0)
        }
        return String(SHA256.hex(text).prefix(16))
    }

    /// The file of the bundle holding `id`'s details (`details/<id>.json`), for an id made of letters,
    /// digits, `-` and `_` (every USGS id) of at most 128 characters; nil for any other (its details
    /// are in the app database only).
    public static func path(of id: String) -> String? {
        guard !id.isEmpty, id.utf8.count <= 128,
              id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F })
        else { return nil }
        return "\(BundleFileName.details)/\(id).json"
    }

    /// Writes `details/<id>.json` for each row (the summary and a newline) into the bundle `directory`.
    func writeFiles(into directory: URL) throws {
        let paths = rows.compactMap { row in Self.path(of: row.id).map { ($0, row.json) } }
        guard !paths.isEmpty else { return }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(BundleFileName.details), withIntermediateDirectories: true)
        for (path, json) in paths {
            let url = directory.appendingPathComponent(path)
            try Data((json + "\n").utf8).write(to: url)
            SQLiteBuild.fsync(url)
        }
    }
}

/// The app database's `details` table (`AppDatabaseSchema.detailsTable`): `id` (the event's id,
/// as in `events`), `json` (its summary).
enum AppDatabaseDetails {
    /// Fills the empty table of a file written whole, in id order.
    static func fill(_ db: Database, _ details: BundleDetails) throws {
        try RawStatement.run(db, "INSERT INTO details (id, json) VALUES (?, ?)", for: details.rows) { s, row in
            s.bind(1, row.id)
            s.bind(2, row.json)
        }
    }

    /// Makes the table of a patched file hold `details`: rows gone removed, new and changed ones written.
    static func patch(_ db: Database, _ details: BundleDetails) throws {
        let held = Dictionary(try Row.fetchAll(db, sql: "SELECT id, json FROM details").map { ($0[0] as String, $0[1] as String?) },
                              uniquingKeysWith: { a, _ in a })
        let wanted = Dictionary(details.rows.map { ($0.id, $0.json) }, uniquingKeysWith: { a, _ in a })
        let gone = held.keys.filter { wanted[$0] == nil }.sorted()
        try RawStatement.run(db, "DELETE FROM details WHERE id = ?", for: gone) { s, id in s.bind(1, id) }
        let changed = details.rows.filter { held[$0.id] != .some($0.json) }
        try RawStatement.run(db, "INSERT OR REPLACE INTO details (id, json) VALUES (?, ?)", for: changed) { s, row in
            s.bind(1, row.id)
            s.bind(2, row.json)
        }
    }
}

import Foundation
import GRDB
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// Values no earthquake has: refused at the border with the reason (issue 13), and, should a
/// store written before the border existed hold one, never a trap in a later stage.
@Suite struct PoisonedValueTests {
    @Test func eachImplausibleCSVValueIsRefusedWithItsReason() async throws {
        let directory = TemporaryDirectory("poison")
        let workspace = Workspace(root: directory.path("ws"))
        let file = BadInputTests.corpus.appendingPathComponent("implausible-values.csv")
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", file.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let store = try EventStore(opening: workspace.storePath)
        defer { try? store.close() }
        #expect(try store.statistics().events == 1)
        let reasons = try store.rejects().map(\.reject.reason)
        #expect(reasons.count == 4, "\(reasons)")
        for words in ["mag 1e+300 is outside the plausible range", "time -9223372036854775808 ms is before 1500",
                      "depth -1000000000.0 is outside the plausible range", "depth is not a number (\"0x1p3\")"] {
            #expect(reasons.contains { $0.contains(words) }, "\(words) in \(reasons)")
        }
    }

    @Test func aStoreHoldingPoisonedValuesStillExports() async throws {
        let directory = TemporaryDirectory("poison")
        let workspace = Workspace(root: directory.path("ws"))
        let indexed = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", BadInputTests.good.path])
        #expect(indexed.status == 0, "\(indexed.standardError)")
        // What an older version let in: written behind the border's back.
        let queue = try DatabaseQueue(path: workspace.storePath.path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE events SET mag = 1e19 WHERE rowid = (SELECT min(rowid) FROM events)")
            try db.execute(sql: "UPDATE events SET mag = 1e300, time = -9223372036854775808 WHERE rowid = (SELECT max(rowid) FROM events)")
        }
        try queue.close()
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", workspace.root.path, "--out", directory.path("out").path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let current = directory.path("out/current/timeline.json")
        let timeline = try JSONSerialization.jsonObject(with: Data(contentsOf: current)) as? [String: Any]
        #expect(timeline?["total"] as? Int == 456)
    }

    /// Positions no index writes (latitude 1000, longitude -5000, infinite, text) once made the
    /// PMTiles writer trap on the bundle's bounds: such rows are left out of the bundle, said.
    @Test func storedPositionsOutOfRangeAreLeftOutAndSaid() async throws {
        let directory = TemporaryDirectory("poison")
        let workspace = Workspace(root: directory.path("ws"))
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", BadInputTests.good.path]).checked()
        let queue = try DatabaseQueue(path: workspace.storePath.path)
        let misplaced = try await queue.write { db in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM events ORDER BY rowid LIMIT 3")
            try db.execute(sql: "UPDATE events SET latitude = 1000, longitude = -5000 WHERE id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE events SET longitude = 1e999 WHERE id = ?", arguments: [ids[1]])
            try db.execute(sql: "UPDATE events SET latitude = 'north' WHERE id = ?", arguments: [ids[2]])
            return ids
        }
        try queue.close()
        let out = directory.path("out")
        let outcome = try await QuakeBakeCLI.run(["export", "--workspace", workspace.root.path, "--out", out.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("3 rows with a position outside -180…180, -90…90 left out of the bundle"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("\(misplaced[0]) (longitude -5000.0, latitude 1000.0)"), "\(outcome.standardError)")
        let app = try DatabaseQueue(path: out.appendingPathComponent("current/quakes.sqlite").path)
        let ids = try await app.read { db in try Set(String.fetchAll(db, sql: "SELECT id FROM events")) }
        #expect(ids.count == 453 && ids.isDisjoint(with: misplaced))
    }
    /// Values of the wrong kind written behind quake-bake's back (a blob for a type, text for a
    /// time, a magnitude, an exit code) once made `status` trap in the database library: it
    /// names the parts it cannot read and answers for the rest; the export still runs.
    @Test func valuesOfTheWrongKindAreNamedNotATrap() async throws {
        let directory = TemporaryDirectory("poison")
        let workspace = Workspace(root: directory.path("ws"))
        _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", BadInputTests.good.path]).checked()
        let store = try DatabaseQueue(path: workspace.storePath.path)
        try await store.write { db in
            try db.execute(sql: "UPDATE events SET event_type = x'c0c0' WHERE rowid = (SELECT min(rowid) FROM events)")
        }
        let typed = try await QuakeBakeCLI.run(["status", "--workspace", workspace.root.path])
        #expect(typed.status == 0 && typed.standardOutput.contains("store: 456 events"), "\(typed.standardOutput) \(typed.standardError)")
        try await store.write { db in
            try db.execute(sql: "UPDATE events SET time = 'abc', mag = 'big' WHERE rowid = (SELECT max(rowid) FROM events)")
        }
        try store.close()
        let runs = try DatabaseQueue(path: workspace.runsPath.path)
        try await runs.write { db in try db.execute(sql: "UPDATE runs SET exit_code = 'x'") }
        try runs.close()
        let status = try await QuakeBakeCLI.run(["status", "--workspace", workspace.root.path])
        #expect(status.status == QuakeCommon.ExitStatus.failure.rawValue, "\(status.standardOutput) \(status.standardError)")
        #expect(status.standardOutput.contains("store: cannot read") && status.standardOutput.contains("\"abc\""), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("runs: cannot read") && status.standardOutput.contains("exit_code"), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("archive: nothing fetched yet"), "\(status.standardOutput)")
        let export = try await QuakeBakeCLI.run(["export", "--workspace", workspace.root.path, "--out", directory.path("out").path])
        #expect(export.status == 0, "\(export.standardError)")
    }
}

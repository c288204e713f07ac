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
}

import Foundation
import QuakeCatalog
import Testing
import TestSupport

/// Replay of the real history slice (October 2024): after every advance the served catalog
/// equals "the catalog as of T" computed straight from the file by the documented rule.
@Suite struct ReplayTests {
    static let slice = TestData.history("all_day-versions-2024-10.csv.gz")

    /// Every row of the slice: the readable versions, and the `first_seen` of rows whose times are broken.
    static let history: (versions: [(firstSeen: Int64, event: QuakeEvent)], broken: [Int64]) = {
        var versions: [(Int64, QuakeEvent)] = []
        var broken: [Int64] = []
        try? ComCatCSV.forEachRow(try Data(contentsOf: slice), source: "slice") { row in
            let firstSeen = ISOTime.parse(row["first_seen"]!)!
            switch row.event() {
            case .success(let event): versions.append((firstSeen, event))
            case .failure: broken.append(firstSeen)
            }
        }
        return (versions, broken)
    }()

    /// The rule: per id, among versions first seen at or before T, a later one replaces the
    /// served one only when its `updated` is strictly greater.
    static func asOf(_ time: String) -> [String: QuakeEvent] {
        let t = Expected.ms(time)
        var served: [String: QuakeEvent] = [:]
        for (firstSeen, event) in history.versions where firstSeen <= t {
            if let current = served[event.id], event.updated <= current.updated { continue }
            served[event.id] = event
        }
        return served
    }

    /// The served catalog as CSV (all 22 columns), deleted events included.
    func served(_ standIn: StandInProcess) async throws -> [String: QuakeEvent] {
        let events = try await standIn.catalog("format=csv&includedeleted=true")
        return Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func servesTheCatalogAsOfTAfterEveryAdvance() async throws {
        let standIn = try StandInProcess(replay: .init(file: Self.slice, start: "2024-10-02T00:00:00Z"))
        let first = try await served(standIn)
        #expect(first == Self.asOf("2024-10-02T00:00:00Z"))
        #expect(first.count > 200)

        var time = Expected.ms("2024-10-02T00:00:00Z")
        for _ in 0..<2 {
            let progress = try await standIn.advanceReplay(by: "6h")
            time += 6 * 3_600_000
            #expect(progress.asOf == time)
            #expect(try await served(standIn) == Self.asOf(ISOTime.format(milliseconds: time)))
        }
        // The service clock is T: metadata.generated and the default window follow it.
        let (data, _) = try await standIn.get("query", "format=geojson&limit=1")
        #expect(CatalogFile.read(data, source: "clock").metadata?.generated == time)

        let end = try await standIn.advanceReplay(to: "2024-11-01T00:00:00Z")
        let all = Self.asOf("2024-11-01T00:00:00Z")
        #expect(try await served(standIn) == all)
        #expect(end.served == all.count)
        #expect(end.totals.rowsRead == Self.history.versions.count + Self.history.broken.count)
        #expect(end.totals.skippedRows == Self.history.broken.count)
        #expect(end.totals.skippedRows == 684)
        #expect(end.totals.ties > 0 && end.totals.regressions > 0)
        await #expect(throws: StandInProcess.Failure.self) { try await standIn.advanceReplay(to: "2024-10-20T00:00:00Z") }
    }

    @Test func simulatedRenamesAndDeletionsFollowTheRealVersions() async throws {
        let options = StandInProcess.Replay(file: Self.slice, start: "2024-10-03T00:00:00Z", seed: 7, renameRate: 0.05, deleteRate: 0.05)
        let one = try StandInProcess(replay: options)
        let two = try StandInProcess(replay: options)
        var deletedAt: [String: Int64] = [:]
        var renamedAt: [String: Int64] = [:]
        func note(_ events: [QuakeEvent]) {
            for event in events {
                if event.isDeleted && deletedAt[event.id] == nil { deletedAt[event.id] = event.updated }
                if event.id.hasPrefix("ussim") && renamedAt[event.id] == nil { renamedAt[event.id] = event.updated }
            }
        }
        var progress = try await one.replayProgress()
        note(try await one.catalog("includedeleted=true"))
        for _ in 0..<8 {
            let stepStart = progress.asOf
            progress = try await one.advanceReplay(by: "12h")
            try await two.advanceReplay(by: "12h")
            // Simulated changes carry updated = T, so the events changed in this step hold them all.
            note(try await one.catalog("includedeleted=true&updatedafter=\(ISOTime.format(milliseconds: stepStart + 1000))"))
        }
        let served = try await one.catalog("includedeleted=true")
        // Deterministic: the same seed and the same advances give the same catalog.
        #expect(served.sorted { $0.id < $1.id } == (try await two.catalog("includedeleted=true")).sorted { $0.id < $1.id })
        #expect(progress.totals.renamed > 0 && progress.totals.deleted > 0)
        #expect(renamedAt.count == progress.totals.renamed)

        // Every real id lives in exactly one served event, which carries the real version the rule picks.
        let expected = Self.asOf(ISOTime.format(milliseconds: progress.asOf))
        #expect(served.count == expected.count)
        var owners: [String: String] = [:]
        for event in served {
            for id in event.ids where !id.hasPrefix("ussim") {
                #expect(owners.updateValue(event.id, forKey: id) == nil, "\(id) is served twice")
                let truth = try #require(expected[id])
                #expect(event.time == truth.time && event.mag == truth.mag && event.latitude == truth.latitude
                        && event.longitude == truth.longitude && event.depthKm == truth.depthKm && event.place == truth.place)
                #expect(event.isDeleted || event.status == truth.status)
                #expect(event.updated >= truth.updated)
            }
        }
        #expect(owners.count == expected.count)
        // Some deleted events came back with a later real version; some renamed events were updated after the rename.
        let byId = Dictionary(uniqueKeysWithValues: served.map { ($0.id, $0) })
        #expect(deletedAt.contains { id, at in byId[id].map { !$0.isDeleted && $0.updated > at } ?? false })
        #expect(renamedAt.contains { id, at in byId[id].map { $0.updated > at && !$0.isDeleted } ?? false })
    }
}

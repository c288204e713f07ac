import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakeOperations
import Testing
import TestSupport

/// `bake` as cron runs it: a real stand-in, the real command, its exit codes, its records.
@Suite struct BakeTests {
    static let sample = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")

    static func arguments(_ workspace: URL, _ standIn: StandInProcess, _ extra: [String] = []) -> [String] {
        // Every significant quake's details in the first run (the sample has 206, over the 200 a run): a
        // second run with nothing new then changes nothing.
        ["bake", "--workspace", workspace.path, "--service", standIn.baseURL.absoluteString, "--start", "2010-01-01",
         "--max-zoom", "5", "--retry-delay", "0.01", "--details-per-run", "500"] + extra
    }

    static func status(_ workspace: URL) async throws -> WorkspaceStatus {
        let outcome = try await QuakeBakeCLI.run(["status", "--json", "--workspace", workspace.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try JSONDecoder().decode(WorkspaceStatus.self, from: Data(outcome.standardOutput.utf8))
    }

    @Test func bakesThenFindsNothingChangedThenBakesTheChange() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 200)
        let directory = TemporaryDirectory()

        let first = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn))
        #expect(first.status == 0, "\(first.standardError)")
        // Under cron: no progress bar, one summary line per stage, then the bake's.
        let lines = first.standardError.split(separator: "\n")
        #expect(!first.standardError.contains("\r"))
        #expect(lines.count == 4, "\(first.standardError)")
        #expect(lines[0].contains("info fetch: full fetch") && lines[1].contains("info index:") && lines[2].contains("info export:")
                && lines[3].contains("info bake: bake ok"))
        var status = try await Self.status(directory.url)
        #expect(status.store?.events == 456)
        #expect(status.bundle?.events == 456)
        #expect(status.runs.first?.outcome == "ok")
        #expect(status.runs.first?.eventsChanged == 456)
        #expect(status.lock == nil)
        let firstBundle = try #require(status.bundle?.version)

        let second = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn))
        #expect(second.status == 0, "\(second.standardError)")
        status = try await Self.status(directory.url)
        #expect(status.runs.first?.outcome == "nothing changed")
        #expect(status.bundle?.version == firstBundle)
        let versions = try FileManager.default.contentsOfDirectory(atPath: directory.path("bundles").path).filter { $0.hasPrefix("v") }
        #expect(versions.count == 1)

        let id = try #require(try await standIn.catalog("starttime=2010-01-01").map(\.id).min())
        _ = try await standIn.update(id, ["mag": 8.8])
        let third = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn, ["--quiet"]))
        #expect(third.status == 0 && third.standardError.isEmpty, "\(third.standardError)")
        status = try await Self.status(directory.url)
        #expect(status.runs.map(\.outcome) == ["ok", "nothing changed", "ok"])
        #expect(status.runs.first?.eventsChanged == 1)
        #expect(status.bundle?.version != firstBundle)
        #expect(status.store?.maxMagnitude == 8.8)
    }

    @Test func aLockedWorkspaceExitsAtOnceWith75() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample])
        let directory = TemporaryDirectory()
        let lock = try WorkspaceLock(workspace: Workspace(root: directory.url), command: "a long bake")
        let outcome = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn))
        #expect(outcome.status == ExitStatus.temporaryFailure.rawValue)
        #expect(outcome.standardError.contains("in use by `a long bake`") && outcome.standardError.contains("kind=locked"), "\(outcome.standardError)")
        // Under cron, the JSON line carries the kind for a log reader to tell "try later" apart.
        let json = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn) + ["--log-format", "json"])
        let error = json.standardError.split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }.first { $0["level"] == "error" }
        #expect(json.status == ExitStatus.temporaryFailure.rawValue && error?["kind"] == "locked", "\(json.standardError)")
        #expect(try await standIn.requests().isEmpty)
        let held = try await Self.status(directory.url)
        #expect(held.lock?.command == "a long bake")
        lock.release()
        #expect(try await Self.status(directory.url).lock == nil)
    }

    @Test func aServiceThatStaysDownIsATemporaryFailure() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], faults: ["503,every=1"])
        let directory = TemporaryDirectory()
        let outcome = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn, ["--max-attempts", "2", "--quiet"]))
        #expect(outcome.status == ExitStatus.temporaryFailure.rawValue)
        #expect(outcome.standardError.contains("503"))
        let status = try await Self.status(directory.url)
        #expect(status.runs.first?.outcome == "temporary failure")
        #expect(status.runs.first?.exitCode == 75)
        #expect(status.bundle == nil)
    }

    @Test func tooManyRejectsIsADataErrorButTheGoodEventsArePublished() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample], cap: 200, faults: ["damage,every=1"])
        let directory = TemporaryDirectory()
        let outcome = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn, ["--max-rejects", "1"]))
        #expect(outcome.status == ExitStatus.dataError.rawValue, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("rejected"))
        // One feature is damaged in each page that has one (a window can be empty).
        let pages = try Archive.pages(in: Workspace(root: directory.url)).filter { $0.eventCount > 0 }.count
        #expect(pages > 1)
        let status = try await Self.status(directory.url)
        #expect(status.runs.first?.outcome == "data error")
        #expect(status.runs.first?.rejected == pages)
        #expect(status.store?.rejects == pages)
        #expect(status.store?.events == 456 - pages)
        #expect(status.bundle?.events == 456 - pages)
    }

    @Test func aKilledRunIsSeenAsInterruptedAndTheNextOneTakesOver() async throws {
        // The first bake's query stalls for ten minutes; it is killed there, holding the lock.
        let standIn = try StandInProcess(catalogs: [Self.sample], faults: ["stall=600,on=query,next=1"])
        let directory = TemporaryDirectory()
        let logs = TemporaryDirectory()
        let errors = logs.path("first-bake.err")
        let process = try QuakeBakeCLI.start(Self.arguments(directory.url, standIn, ["--connect-timeout", "900", "--read-timeout", "900", "--request-deadline", "900"]),
                                             standardError: errors)
        try await waitUntil("the first bake's count request") {
            guard process.isRunning else {
                let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                throw ChildProcess.Failure(description: "the first bake ended (status \(process.terminationStatus)) before its count request: \(said)")
            }
            return try await !standIn.requests().filter({ $0.endpoint == "count" }).isEmpty
        }
        #expect(WorkspaceLock.holder(of: Workspace(root: directory.url)) != nil)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let next = try await QuakeBakeCLI.run(Self.arguments(directory.url, standIn, ["--quiet"]))
        #expect(next.status == 0, "\(next.standardError)")
        let status = try await Self.status(directory.url)
        #expect(status.runs.map(\.outcome) == ["ok", "interrupted"])
        #expect(status.runs.last?.stage == "fetch")
        #expect(status.store?.events == 456)
    }

    @Test func aConfigurationFileDrivesTheRun() async throws {
        let standIn = try StandInProcess(catalogs: [Self.sample])
        let directory = TemporaryDirectory()
        let config = directory.path("bake.yaml")
        try """
            workspace: \(directory.path("ws").path)
            service: \(standIn.baseURL.absoluteString)
            selection:
              start: 2015-01-01
              end: 2016-01-01
            fetch:
              retry_delay: 0.01
            export:
              out: \(directory.path("public").path)
              max_zoom: 3
              keep: 1
            """.write(to: config, atomically: true, encoding: .utf8)
        let outcome = try await QuakeBakeCLI.run(["bake", "--config", config.path, "--log-format", "json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        for line in outcome.standardError.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] as? String == "info" && object?["message"] != nil)
        }
        let expected = try await standIn.catalog("starttime=2015-01-01&endtime=2016-01-01").count
        let status = try await QuakeBakeCLI.run(["status", "--json", "--workspace", directory.path("ws").path,
                                                 "--out", directory.path("public").path])
        let decoded = try JSONDecoder().decode(WorkspaceStatus.self, from: Data(status.standardOutput.utf8))
        #expect(decoded.store?.events == expected)
        #expect(decoded.bundle?.events == expected)
        let manifest = try Data(contentsOf: directory.path("public/current/manifest.json"))
        #expect(String(decoding: manifest, as: UTF8.self).contains("\"max_zoom\": 3") || String(decoding: manifest, as: UTF8.self).contains("\"max_zoom\":3"))
    }
}

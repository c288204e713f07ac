import Foundation
import QuakeCatalog
import QuakeCommon
import QuakeStore
import Testing
import TestSupport

/// The bad-input corpus (`Tests/BadInput`, see its README) fed to `quake-bake index --from`
/// beside a good file: each bad file gets a clear message or reject rows, the good file and
/// the good parts of the bad one are stored, and the exit status says what happened.
@Suite struct BadInputTests {
    static let corpus = TestData.projectRoot.appendingPathComponent("Tests/BadInput")
    static let good = TestData.usgs("query-m4.5-2010-2020-sample.geojson.gz")

    struct BadFile: Sendable, CustomStringConvertible {
        var file: String
        var exitStatus: QuakeCommon.ExitStatus
        /// Events the bad file still gives.
        var stored: Int
        /// Words a reject row's reason holds (nil: no reject row expected). A document that is
        /// damaged as a whole is also a reject row, at position `document`.
        var reject: String?
        /// Reject rows expected.
        var rejects: Int
        /// Words the command's error output holds (nil: none expected).
        var message: String?
        /// Ids of events the bad file gives that the store must hold (each as its own event).
        var ids: [String] = []
        var description: String { file }
    }

    static let cases: [BadFile] = [
        BadFile(file: "malformed-feature.geojson", exitStatus: .success, stored: 4, reject: "broken JSON", rejects: 1, message: nil),
        BadFile(file: "truncated.geojson", exitStatus: .dataError, stored: 3, reject: "truncated", rejects: 2, message: "truncated"),
        BadFile(file: "latitude-91.geojson", exitStatus: .success, stored: 1, reject: "latitude 91", rejects: 1, message: nil),
        BadFile(file: "longitude-540.geojson", exitStatus: .success, stored: 1, reject: "longitude 540", rejects: 1, message: nil),
        BadFile(file: "nan-longitude.geojson", exitStatus: .success, stored: 1, reject: "longitude is nan", rejects: 1, message: nil),
        BadFile(file: "null-geometry.geojson", exitStatus: .success, stored: 1, reject: "geometry is null", rejects: 1, message: nil),
        BadFile(file: "duplicate-ids.geojson", exitStatus: .success, stored: 2, reject: nil, rejects: 0, message: nil),
        BadFile(file: "broken-timestamps.csv", exitStatus: .success, stored: 2, reject: "not a valid time", rejects: 1, message: nil),
        BadFile(file: "empty.geojson", exitStatus: .dataError, stored: 0, reject: "the file is empty", rejects: 1, message: "the file is empty"),
        BadFile(file: "binary.bin", exitStatus: .dataError, stored: 0, reject: "binary file", rejects: 1, message: "binary file"),
        BadFile(file: "magnitude-1e19.geojson", exitStatus: .success, stored: 1, reject: "mag 1e+19 is outside the plausible range", rejects: 1, message: nil),
        BadFile(file: "year-3000.geojson", exitStatus: .success, stored: 1, reject: "more than a day in the future", rejects: 1, message: nil),
        BadFile(file: "implausible-values.csv", exitStatus: .success, stored: 1, reject: "outside the plausible range", rejects: 4, message: nil),
        BadFile(file: "all-times-broken.csv", exitStatus: .dataError, stored: 0, reject: "not a valid time", rejects: 5,
                message: "every one of the 5 items of"),
        BadFile(file: "tutorial-earthquakes.geojson", exitStatus: .success, stored: 3, reject: nil, rejects: 0, message: nil),
        BadFile(file: "tutorial-with-bom.ndjson", exitStatus: .success, stored: 3, reject: nil, rejects: 0, message: nil),
        BadFile(file: "tutorial-text-sequence.geojsons", exitStatus: .success, stored: 3, reject: nil, rejects: 0, message: nil),
        BadFile(file: "sequence-stray-bytes.ndjson", exitStatus: .success, stored: 3, reject: "broken JSON: expected a value, found byte 0x91",
                rejects: 2, message: nil),
        BadFile(file: "shared-secondary-id.geojson", exitStatus: .success, stored: 2, reject: nil, rejects: 0, message: nil),
        BadFile(file: "five-thousand-ids.geojson", exitStatus: .success, stored: 1, reject: "ids lists 5001 entries (limit 256)", rejects: 1, message: nil),
        BadFile(file: "truncated-download.geojson.gz", exitStatus: .dataError, stored: 3, reject: "truncated", rejects: 2,
                message: "truncated-download.geojson.gz: gzip: data is truncated; read up to there (2.9 KB of text)"),
        BadFile(file: "trailing-bytes.geojson.gz", exitStatus: .dataError, stored: 5, reject: "start no gzip member", rejects: 1,
                message: "the events read before the damage are indexed"),
        BadFile(file: "wrong-checksum.geojson.gz", exitStatus: .dataError, stored: 5, reject: "incorrect data check", rejects: 1,
                message: "wrong-checksum.geojson.gz: gzip: corrupt data (incorrect data check); read up to there (3.6 KB of text)",
                ids: ["us6000rk5h", "us6000rk5e", "ak025dvmgvu8", "us6000rk5b", "us6000rk59"]),
        BadFile(file: "gzip-bomb.geojson.gz", exitStatus: .dataError, stored: 0, reject: "inflates to more than 64.0 MB", rejects: 1, message: "inflates to more than"),
        BadFile(file: "wrong-header.csv", exitStatus: .dataError, stored: 0, reject: "wrong CSV header", rejects: 1, message: "wrong CSV header"),
        BadFile(file: "wrong-header-alone.csv", exitStatus: .dataError, stored: 0, reject: "wrong CSV header", rejects: 1, message: "wrong CSV header"),
        BadFile(file: "json-array.geojson", exitStatus: .dataError, stored: 0, reject: "a JSON array, neither GeoJSON", rejects: 1,
                message: "json-array.geojson: a JSON array, neither GeoJSON"),
        BadFile(file: "sig-beyond-2p53.geojson", exitStatus: .success, stored: 1,
                reject: "property sig 4.611686018427388e+18 is too large (whole numbers up to 9e15)", rejects: 1, message: nil),
        BadFile(file: "count-beyond-2p53.csv", exitStatus: .success, stored: 1,
                reject: "nst 1e+30 is too large (whole numbers up to 9e15)", rejects: 1, message: nil),
        // The first 1,000 rejects kept whole, then one row that counts the rest (a flood costs bounded memory and store).
        BadFile(file: "comma-flood.csv", exitStatus: .success, stored: 2, reject: "row has 200,001 cells, the header has 22", rejects: 1, message: nil),
        BadFile(file: "reject-flood.geojson", exitStatus: .dataError, stored: 1, reject: "1,500 more items refused, not recorded one by one",
                rejects: 1_001, message: "2,500 items refused, more than --max-rejects 100"),
        BadFile(file: "feature-broken-json.geojson", exitStatus: .dataError, stored: 0, reject: "broken JSON: malformed number, found '1' at byte 30",
                rejects: 1, message: "feature-broken-json.geojson was refused"),
        BadFile(file: "comma-in-id.geojson", exitStatus: .success, stored: 2, reject: "id \"x,y\" holds a comma", rejects: 4, message: nil,
                ids: ["us1000aaaa", "us1000eeee"]),
        BadFile(file: "numeric-ids.geojson", exitStatus: .success, stored: 2, reject: "id 1.2 is not a whole number", rejects: 4, message: nil,
                ids: ["7", "1000"]),
        BadFile(file: "two-documents.geojson", exitStatus: .dataError, stored: 1, reject: "unexpected content after the GeoJSON document", rejects: 1,
                message: "two-documents.geojson: unexpected content after the GeoJSON document at byte 218", ids: ["us1000aaaa"]),
        BadFile(file: "garbage-after.geojson", exitStatus: .dataError, stored: 2, reject: "unexpected content after the GeoJSON document", rejects: 1,
                message: "garbage-after.geojson: unexpected content after the GeoJSON document at byte 446", ids: ["us1000aaaa", "us1000bbbb"]),
        BadFile(file: "stray-brace.geojson", exitStatus: .dataError, stored: 2, reject: "expected ',' or ']' between features, found '}'", rejects: 1,
                message: "stray-brace.geojson: broken JSON: expected ',' or ']' between features, found '}' at byte 388", ids: ["us1000aaaa", "us1000bbbb"]),
        BadFile(file: "sequence-comma-line.ndjson", exitStatus: .success, stored: 3, reject: "broken JSON: expected a value, found ',' at byte 171",
                rejects: 1, message: nil, ids: ["ak16994521", "ak16994519", "ak16994517"]),
        BadFile(file: "sequence-stray-separator.ndjson", exitStatus: .success, stored: 3, reject: "broken JSON: expected a value, found byte 0x1E at byte 227",
                rejects: 3, message: nil, ids: ["ak16994521", "ak16994519", "ak16994517"]),
        BadFile(file: "empty-element.geojson", exitStatus: .success, stored: 3, reject: "broken JSON: expected a value, found ',' at byte 216", rejects: 1,
                message: nil, ids: ["us1000aaaa", "us1000bbbb", "us1000cccc"]),
        BadFile(file: "error-status-with-features.geojson", exitStatus: .dataError, stored: 2, reject: "the service answered status 503", rejects: 1,
                message: "error-status-with-features.geojson: the service answered status 503: Service Unavailable", ids: ["us1000aaaa", "us1000bbbb"]),
        BadFile(file: "error-status-long-broken-feature.geojson", exitStatus: .dataError, stored: 2,
                reject: "broken JSON: expected ',' or '}', found '\"' at byte 6044", rejects: 2,
                message: "error-status-long-broken-feature.geojson: the service answered status 503: Service Unavailable", ids: ["us1000aaaa", "us1000bbbb"]),
        BadFile(file: "error-status-stray-colon.geojson", exitStatus: .dataError, stored: 1, reject: "the service answered status 503", rejects: 1,
                message: "error-status-stray-colon.geojson: the service answered status 503: Service Unavailable", ids: ["us1000zzzz"]),
        BadFile(file: "error-status-broken-member.geojson", exitStatus: .dataError, stored: 0, reject: "the service answered status 400", rejects: 1,
                message: "error-status-broken-member.geojson: the service answered status 400: Bad Request"),
        BadFile(file: "sequence-unbalanced.ndjson", exitStatus: .success, stored: 3, reject: "broken JSON: expected ',' or ']', found '{' at byte 506",
                rejects: 2, message: nil, ids: ["ak16994521", "ak16994519", "ak16994517"]),
        BadFile(file: "first-line-broken.ndjson", exitStatus: .success, stored: 3, reject: "broken JSON: unexpected token, found 'n' at byte 254",
                rejects: 1, message: nil, ids: ["ak16994521", "ak16994519", "ak16994517"]),
        BadFile(file: "text-sequence-broken.geojsons", exitStatus: .success, stored: 3, reject: "broken JSON: expected a value, found byte 0x1E at byte 320",
                rejects: 2, message: nil, ids: ["ak16994521", "ak16994519", "ak16994517"]),
        BadFile(file: "quote-in-cell.csv", exitStatus: .success, stored: 4, reject: "latitude 91", rejects: 1, message: nil,
                ids: ["ci38600815", "ci38600727", "ci38600703", "ci38600551"]),
        BadFile(file: "nul-in-row.csv", exitStatus: .success, stored: 3, reject: "place holds a NUL byte (binary damage)", rejects: 1, message: nil,
                ids: ["ci38600727", "ci38600703", "ci38600551"]),
    ]

    @Test(arguments: cases)
    func badFileBesideAGoodOne(_ c: BadFile) async throws {
        let directory = TemporaryDirectory("bad-input")
        let bad = Self.corpus.appendingPathComponent(c.file)
        try await Self.check(bad, c, directory: directory)
    }

    @Test func tenMegabyteStringIsRejectedAndCut() async throws {
        let directory = TemporaryDirectory("bad-input")
        let sample = try String(contentsOf: Self.corpus.appendingPathComponent("latitude-91.geojson"), encoding: .utf8)
        let huge = String(repeating: "x", count: 10 * 1024 * 1024)
        // The latitude-91 sample with a sound latitude and a 10 MB place name in its first feature.
        var text = sample.replacingOccurrences(of: ",91,", with: ",61,")
        let place = try #require(text.range(of: "\"place\":\""))
        text.insert(contentsOf: huge, at: place.upperBound)
        let file = directory.path("huge-place.geojson")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try await Self.check(file, BadFile(file: "huge-place.geojson", exitStatus: .success, stored: 1, reject: "bytes long", rejects: 1, message: nil),
                             directory: directory)
        let store = try EventStore(opening: Workspace(root: directory.path("ws")).storePath)
        defer { try? store.close() }
        let raw = try #require(try store.rejects().first?.reject.raw)
        #expect(raw.utf8.count < 20_000 && raw.contains("[cut:"))
    }

    @Test func aDirectoryADeviceAndAnOversizedFileAreNamedInWords() async throws {
        let directory = TemporaryDirectory("bad-input")
        let workspace = Workspace(root: directory.path("ws"))
        let oversized = directory.path("two-megabytes.csv")
        try Data(count: 2 << 20).write(to: oversized)
        // Big enough to be read a piece at a time (IndexSource.streamedFrom), and not read either.
        let streamed = directory.path("nine-megabytes.geojson")
        try Data(count: 9 << 20).write(to: streamed)
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--max-file-size", "1", "--from", Self.good.path,
                                                  "--from", directory.url.path, "--from", "/dev/null", "--from", oversized.path, "--from", streamed.path])
        #expect(outcome.status == QuakeCommon.ExitStatus.failure.rawValue, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("\(directory.url.path): a directory, not a catalog file"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("/dev/null: a device or socket, not a catalog file"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("two-megabytes.csv: 2.0 MB, over the 1.0 MB limit for one file"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("nine-megabytes.geojson: 9.0 MB, over the 1.0 MB limit for one file"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("4 of 5 sources could not be read"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("NSCocoaErrorDomain"), "\(outcome.standardError)")
        let store = try EventStore(opening: workspace.storePath)
        defer { try? store.close() }
        #expect(try store.statistics().events == 456)
    }

    /// A long pipe (`--from <(zcat …)`) is copied to a scratch file and read a piece at a time
    /// as a big file is, never whole in memory (3 GB of zeros once took 4.25 GB); the scratch
    /// file goes when it has been read.
    @Test func aLongPipeIsReadAPieceAtATimeAndItsScratchFileRemoved() async throws {
        let directory = TemporaryDirectory("bad-input")
        let text = String(decoding: try Gzip.decompressIfNeeded(Data(contentsOf: Self.good)), as: UTF8.self)
        // 9 MB of blanks before the first feature: longer than what is read whole (8 MB).
        let cut = try #require(text.range(of: "\"features\":["))
        let padded = Data((text[..<cut.upperBound] + String(repeating: " ", count: 9 << 20) + text[cut.upperBound...]).utf8)
        let fifo = directory.path("catalog.pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            handle.write(padded)
            try? handle.close()
        }
        writer.start()
        let scratchBefore = try Self.pipeScratchFiles()
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", directory.path("ws").path, "--from", fifo.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let store = try EventStore(opening: Workspace(root: directory.path("ws")).storePath)
        defer { try? store.close() }
        #expect(try store.statistics().events == 456)
        #expect(try Self.pipeScratchFiles() == scratchBefore, "the scratch file is removed")
    }

    static func pipeScratchFiles() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("quake-bake-pipe-") })
    }

    /// Refusals are loud (issue 16): past --max-rejects the run exits 65 with the good rows
    /// stored, and a summary line gives the count and the most common reasons.
    @Test func refusalsPastMaxRejectsAreExit65WithASummary() async throws {
        let directory = TemporaryDirectory("bad-input")
        let workspace = Workspace(root: directory.path("ws"))
        let broken = Self.corpus.appendingPathComponent("broken-timestamps.csv")
        let implausible = Self.corpus.appendingPathComponent("implausible-values.csv")
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--max-rejects", "2",
                                                  "--from", broken.path, "--from", implausible.path])
        #expect(outcome.status == QuakeCommon.ExitStatus.dataError.rawValue, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("5 items refused, more than --max-rejects 2"), "\(outcome.standardError)")
        #expect(outcome.standardError.contains("implausible-values.csv: 4 of 5 items refused (see the rejects table); most common: "),
                "\(outcome.standardError)")
        #expect(outcome.standardError.contains("broken-timestamps.csv: 1 of 3 items refused"), "\(outcome.standardError)")
        let store = try EventStore(opening: workspace.storePath)
        defer { try? store.close() }
        #expect(try store.statistics().events == 2)
        // The same rows within the limit: exit 0.
        let again = try await QuakeBakeCLI.run(["index", "--workspace", directory.path("ws2").path, "--from", broken.path, "--from", implausible.path])
        #expect(again.status == 0, "\(again.standardError)")
    }

    /// An event read from a tutorial file (no `updated`) and from the service (with one): the
    /// service's version wins, in either order (issue 16).
    @Test func theServicesVersionWinsOverATutorialFile() async throws {
        let directory = TemporaryDirectory("bad-input")
        let tutorial = Self.corpus.appendingPathComponent("tutorial-earthquakes.geojson")
        let service = directory.path("service.geojson")
        try #"""
            {"type":"Feature","id":"ak16994521","properties":{"mag":2.4,"time":1507425650893,"updated":1507430000000,
             "ids":",ak16994521,","net":"ak","code":"16994521","status":"reviewed","type":"earthquake"},
             "geometry":{"type":"Point","coordinates":[-151.5129,63.1016,0]}}
            """#.write(to: service, atomically: true, encoding: .utf8)
        for (name, order) in [("tutorial-first", [tutorial, service]), ("service-first", [service, tutorial])] {
            let workspace = Workspace(root: directory.path(name))
            for file in order {
                _ = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", file.path]).checked()
            }
            let store = try EventStore(opening: workspace.storePath)
            defer { try? store.close() }
            let event = try #require(try store.event(id: "ak16994521"))
            #expect(event.mag == 2.4 && event.status == "reviewed", "\(name)")
            #expect(try store.statistics().events == 3, "\(name)")
        }
    }

    /// Two live events sharing a secondary id, served by the stand-in, fetched and indexed:
    /// both are served, archived and stored, and `eventid=` and `event_ids` give the newer
    /// for the shared id (issue 16.1).
    @Test func twoEventsSharingASecondaryIDStayTwoFromServiceToStore() async throws {
        let directory = TemporaryDirectory("bad-input")
        let file = Self.corpus.appendingPathComponent("shared-secondary-id.geojson")
        let standIn = try StandInProcess(catalogs: [file])
        let (data, _) = try await standIn.get("query", "eventid=at00n3xyz1&format=geojson")
        #expect(CatalogFile.read(data, source: "eventid").events.map(\.id) == ["us20001abc"])
        let root = directory.path("ws").path
        _ = try await QuakeBakeCLI.run(["fetch", "--workspace", root, "--service", standIn.baseURL.absoluteString,
                                        "--start", "2014-04-01", "--end", "2014-05-01", "--quiet"]).checked()
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--quiet"]).checked()
        let store = try EventStore(opening: Workspace(root: directory.path("ws")).storePath)
        defer { try? store.close() }
        #expect(try store.event(id: "ak11235813")?.mag == 2.9)
        #expect(try store.event(id: "us20001abc")?.mag == 4.1)
        #expect(try store.preferredID(of: "at00n3xyz1") == "us20001abc")
    }

    /// "nothing to index", and why (issue 16).
    @Test func nothingToIndexIsSaid() async throws {
        let directory = TemporaryDirectory("bad-input")
        let root = directory.path("ws").path
        let empty = try await QuakeBakeCLI.run(["index", "--workspace", root])
        #expect(empty.status == 0)
        #expect(empty.standardError.contains("nothing to index: the archive has no pages and no --from file was given"), "\(empty.standardError)")
        _ = try await QuakeBakeCLI.run(["index", "--workspace", root, "--from", Self.good.path]).checked()
        let again = try await QuakeBakeCLI.run(["index", "--workspace", root, "--from", Self.good.path])
        #expect(again.status == 0)
        #expect(again.standardError.contains("nothing to index: the source was indexed before (same content)"), "\(again.standardError)")
    }

    static func check(_ bad: URL, _ c: BadFile, directory: TemporaryDirectory) async throws {
        let workspace = Workspace(root: directory.path("ws"))
        let outcome = try await QuakeBakeCLI.run(["index", "--workspace", workspace.root.path, "--from", good.path, "--from", bad.path])
        #expect(outcome.status == c.exitStatus.rawValue, "\(c.file): \(outcome.standardError)")
        if let message = c.message {
            #expect(outcome.standardError.contains(message) && outcome.standardError.contains(c.file), "\(outcome.standardError)")
        } else {
            #expect(!outcome.standardError.contains("error"), "\(outcome.standardError)")
        }
        let store = try EventStore(opening: workspace.storePath)
        defer { try? store.close() }
        let statistics = try store.statistics()
        #expect(statistics.events == 456 + c.stored, "\(c.file)")
        for id in c.ids {
            #expect(try store.event(id: id)?.id == id, "\(c.file): \(id)")
        }
        let rejects = try store.rejects()
        #expect(rejects.count == c.rejects, "\(rejects)")
        #expect(rejects.allSatisfy { $0.source.contains(bad.lastPathComponent) }, "\(rejects)")
        if let reason = c.reject {
            #expect(rejects.contains { $0.reject.reason.localizedCaseInsensitiveContains(reason) }, "\(rejects)")
            // Every reject keeps its text, but an empty element (`,,`), which has none.
            #expect(rejects.allSatisfy { $0.reject.position == "document" || $0.reject.position.hasPrefix("after item") || !$0.reject.raw.isEmpty
                        || $0.reject.reason.hasSuffix("expected a value, found ',' at byte \($0.reject.position.split(separator: " ").last?.dropLast() ?? "")") })
        }
        #expect(try CatalogComparison.integrity(of: workspace.storePath) == "ok")
    }
}

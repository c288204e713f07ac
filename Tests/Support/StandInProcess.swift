import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QuakeCatalog

/// The `usgs-stand-in` executable running as a child process, for tests.
///
/// Starts the binary built next to the test binary with the given catalogs, cap, faults
/// or replay, reads the URL it prints, and talks to its admin interface
/// (docs/stand-in.md). The process stops on `stop()` or when this value goes away, and
/// also when the test process dies (it exits when its standard input closes).
///
/// ```swift
/// let standIn = try StandInProcess(catalogs: [TestData.usgs("feed-all_week-2018-06.geojson.gz")], cap: 500)
/// let (data, response) = try await standIn.get("count", "starttime=2018-06-01&format=geojson")
/// try await standIn.delete("us1000ey3u")
/// ```
public final class StandInProcess: @unchecked Sendable {
    /// The FDSN base, `http://127.0.0.1:PORT/fdsnws/event/1/`.
    public let baseURL: URL
    /// The admin base, `http://127.0.0.1:PORT/admin/`.
    public let adminURL: URL
    private let process: Process
    /// Signalled when Foundation sees the process end.
    private let exited = DispatchSemaphore(value: 0)
    private let stopping = NSLock()
    private var stopped = false
    private let standardInput: Pipe
    private let session: URLSession

    /// Replay options (see `usgs-stand-in --help`).
    public struct Replay: Sendable {
        public var file: URL
        public var start: String?
        public var seed: UInt64?
        public var renameRate: Double?
        public var deleteRate: Double?

        public init(file: URL, start: String? = nil, seed: UInt64? = nil, renameRate: Double? = nil, deleteRate: Double? = nil) {
            self.file = file
            self.start = start
            self.seed = seed
            self.renameRate = renameRate
            self.deleteRate = deleteRate
        }
    }

    /// Starts the stand-in and waits until it listens.
    /// - Parameters:
    ///   - catalogs: ComCat files to serve.
    ///   - cap: the search limit (default 20,000).
    ///   - now: a fixed service clock (ISO-8601); default the wall clock.
    ///   - faults: fault specs active from the start.
    ///   - replay: replay mode.
    ///   - details: recorded detail answers and product files (`TestData.details`).
    ///   - arguments: any further command-line arguments.
    public init(catalogs: [URL] = [], cap: Int? = nil, now: String? = nil, faults: [String] = [],
                replay: Replay? = nil, details: URL? = nil, arguments: [String] = []) throws {
        var args = catalogs.flatMap { ["--catalog", $0.path] } + ["--port", "0", "--stop-on-stdin-close"]
        if let details { args += ["--details", details.path] }
        if let cap { args += ["--cap", String(cap)] }
        if let now { args += ["--now", now] }
        args += faults.flatMap { ["--fault", $0] }
        if let replay {
            args += ["--replay", replay.file.path]
            if let start = replay.start { args += ["--replay-start", start] }
            if let seed = replay.seed { args += ["--seed", String(seed)] }
            if let rate = replay.renameRate { args += ["--rename-rate", String(rate)] }
            if let rate = replay.deleteRate { args += ["--delete-rate", String(rate)] }
        }
        args += arguments

        // Its stderr (one line per request) goes to a file that is removed as soon as it is open,
        // and read only if it does not start: no log is left in /tmp, also by the stand-ins a
        // suite shares, which live as long as the test process.
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("usgs-stand-in-\(UUID().uuidString.prefix(8)).log").path
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw Failure(description: "cannot create \(logPath)")
        }
        let logWriter = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let logReader = try FileHandle(forReadingFrom: URL(fileURLWithPath: logPath))
        unlink(logPath)
        process = Process()
        process.executableURL = try Self.executableURL()
        process.arguments = args
        let output = ChildProcess.pipe()
        standardInput = ChildProcess.pipe()
        process.standardOutput = output
        process.standardInput = standardInput
        process.standardError = logWriter
        process.terminationHandler = { [exited] _ in exited.signal() }
        try ChildProcess.spawn(process)

        let line = Self.firstLine(of: output.fileHandleForReading, process: process, timeout: 120)
        let prefix = "usgs-stand-in listening on "
        guard let line, line.hasPrefix(prefix), let url = URL(string: String(line.dropFirst(prefix.count))) else {
            Self.end(process, exited: exited)
            let text = String(decoding: (try? logReader.readToEnd()) ?? Data(), as: UTF8.self)
            throw Failure(description: "usgs-stand-in did not start (printed \(line.map { "\"\($0)\"" } ?? "nothing"), \(process.isRunning ? "still running" : "exit status \(process.terminationStatus)")):\n\(text)")
        }
        baseURL = url
        adminURL = URL(string: "/admin/", relativeTo: url)!.absoluteURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    deinit {
        stop()
    }

    /// Stops the process (SIGTERM) and waits for it: at most 30 s, then SIGKILL and the
    /// process reaped here. (Foundation's `waitUntilExit` once spun for 20 minutes on a stand-in
    /// that had exited but that Foundation never reaped, hanging the whole test run.)
    public func stop() {
        let first = stopping.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first { Self.end(process, exited: exited) }
    }

    /// SIGTERM, then a wait for `exited` of at most 30 s, then SIGKILL and a reap.
    private static func end(_ process: Process, exited: DispatchSemaphore) {
        guard process.isRunning else { return }
        process.terminate()
        if exited.wait(timeout: .now() + 30) == .timedOut {
            let pid = process.processIdentifier
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// A test failure with what went wrong.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    // MARK: Finding and starting the binary

    /// The `usgs-stand-in` binary: `$USGS_STAND_IN`, else next to the running test binary
    /// (where `swift build` / `swift test` put it).
    public static func executableURL() throws -> URL {
        try BuiltExecutable.url(named: "usgs-stand-in", override: "USGS_STAND_IN")
    }

    /// The first line the process prints, or `nil` if it ends (or `timeout` passes) first
    /// (the watchdog then terminates it). Servers print where they listen this way.
    public static func firstLine(of handle: FileHandle, process: Process, timeout: TimeInterval) -> String? {
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        var bytes = Data()
        while !bytes.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        return String(decoding: bytes[..<newline], as: UTF8.self)
    }

    // MARK: FDSN requests

    /// `baseURL` + `method` + `?query` (the query as written, e.g. `"format=geojson&starttime=2019-01-01"`).
    public func url(_ method: String, _ query: String = "") -> URL {
        URL(string: method + (query.isEmpty ? "" : "?" + query), relativeTo: baseURL)!.absoluteURL
    }

    /// GETs an FDSN method; any status is returned, not thrown.
    public func get(_ method: String, _ query: String = "", headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        try await send(url(method, query), method: "GET", body: nil, headers: headers)
    }

    // MARK: Admin interface

    /// A value for `update`: number, string or null (write literals: `["mag": 5.1, "place": "x", "felt": nil]`).
    public enum FieldValue: Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
        case number(Double), string(String), null
        public init(floatLiteral value: Double) { self = .number(value) }
        public init(integerLiteral value: Int) { self = .number(Double(value)) }
        public init(stringLiteral value: String) { self = .string(value) }
        public init(nilLiteral: ()) { self = .null }

        var json: Any {
            switch self {
            case .number(let value): value
            case .string(let value): value
            case .null: NSNull()
            }
        }
    }

    /// Changes fields of the event known by `id` (GeoJSON property names, plus `latitude`,
    /// `longitude`, `depth`); `updated` is bumped. Returns the new version.
    @discardableResult
    public func update(_ id: String, _ fields: [String: FieldValue]) async throws -> QuakeEvent {
        try feature(await admin("POST", "events/\(id)/update", json: fields.mapValues(\.json)))
    }

    /// Makes `newId` the preferred id of the event known by `id` (the old id stays in `ids`).
    @discardableResult
    public func changePreferredId(_ id: String, to newId: String) async throws -> QuakeEvent {
        try feature(await admin("POST", "events/\(id)/preferred-id", json: ["id": newId]))
    }

    /// Marks the event known by `id` deleted.
    @discardableResult
    public func delete(_ id: String) async throws -> QuakeEvent {
        try feature(await admin("POST", "events/\(id)/delete"))
    }

    /// Serves `events` as given (replacing events that share an id).
    public func add(_ events: [QuakeEvent]) async throws {
        _ = try await admin("POST", "events", body: Data(GeoJSONWriter.collection(events, metadata: PageMetadata(count: events.count)).utf8))
    }

    /// Replaces every fault rule with `specs` (syntax in docs/stand-in.md).
    public func setFaults(_ specs: [String]) async throws {
        try await clearFaults()
        if !specs.isEmpty { _ = try await admin("POST", "faults", json: ["faults": specs]) }
    }

    /// Removes every fault rule.
    public func clearFaults() async throws {
        _ = try await admin("DELETE", "faults")
    }

    /// One logged FDSN request.
    public struct Request: Decodable, Sendable {
        public var seq: Int
        public var method: String
        /// Path and query as sent.
        public var target: String
        /// `query`, `count`, `version`, …
        public var endpoint: String
        public var status: Int
        public var bytes: Int
        public var ms: Int
        /// The fault that fired (`503`, `429`, `stall`, `disconnect`, `truncate`, `error200`, `proxy`, `wrongcount`).
        public var fault: String?
    }

    /// The FDSN requests answered since the last reset, in order.
    public func requests() async throws -> [Request] {
        struct List: Decodable { var requests: [Request] }
        return try JSONDecoder().decode(List.self, from: await admin("GET", "requests")).requests
    }

    /// Empties the request log.
    public func resetRequests() async throws {
        _ = try await admin("DELETE", "requests")
    }

    /// Fixes the service clock at `time` (ISO-8601).
    public func setClock(_ time: String) async throws {
        _ = try await admin("POST", "clock", json: ["now": time])
    }

    /// Moves the service clock on by `duration` (`90s`, `30m`, `6h`, `2d`).
    public func advanceClock(by duration: String) async throws {
        _ = try await admin("POST", "clock", json: ["advance": duration])
    }

    /// Where a replay stands after an advance.
    public struct ReplayProgress: Decodable, Sendable {
        public struct Counts: Decodable, Sendable {
            public var rowsRead: Int, applied: Int, ties: Int, regressions: Int, skippedRows: Int, renamed: Int, deleted: Int
        }
        /// T, ms since 1970 UTC.
        public var asOf: Int64
        /// What the last advance did (absent from a plain status).
        public var step: Counts?
        public var totals: Counts
        /// Events served, deleted ones included.
        public var served: Int
        public var deleted: Int
    }

    /// Replays up to `time` (ISO-8601).
    @discardableResult
    public func advanceReplay(to time: String) async throws -> ReplayProgress {
        try JSONDecoder().decode(ReplayProgress.self, from: await admin("POST", "replay/advance", json: ["to": time]))
    }

    /// Replays `duration` further (`6h`, `1d`, …).
    @discardableResult
    public func advanceReplay(by duration: String) async throws -> ReplayProgress {
        try JSONDecoder().decode(ReplayProgress.self, from: await admin("POST", "replay/advance", json: ["by": duration]))
    }

    /// Where the replay stands.
    public func replayProgress() async throws -> ReplayProgress {
        try JSONDecoder().decode(ReplayProgress.self, from: await admin("GET", "replay"))
    }

    /// Every served event the FDSN `query` selects (no cap, no default starttime),
    /// e.g. `catalog("includedeleted=true")`. With `format=csv` in `query` the CSV answer
    /// is read, which keeps the CSV-only columns.
    public func catalog(_ query: String = "") async throws -> [QuakeEvent] {
        let data = try await admin("GET", "catalog" + (query.isEmpty ? "" : "?" + query))
        let page = CatalogFile.read(data, source: "stand-in catalog")
        if let problem = page.problem { throw Failure(description: problem) }
        return page.events
    }

    /// How many events `query` selects (deleted ones apart) and the `CatalogDigest` of those not deleted.
    public struct Digest: Decodable, Sendable, Equatable {
        public var events: Int
        public var deleted: Int
        public var digest: String
    }

    /// The digest of the served catalog `query` selects (`includedeleted` is implied).
    public func catalogDigest(_ query: String = "") async throws -> Digest {
        try JSONDecoder().decode(Digest.self, from: await admin("GET", "catalog/digest" + (query.isEmpty ? "" : "?" + query)))
    }

    /// Sends an admin request; throws on any status but 200, with the stand-in's message.
    public func admin(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil) async throws -> Data {
        let payload = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? body
        let (data, response) = try await send(URL(string: path, relativeTo: adminURL)!.absoluteURL, method: method, body: payload, headers: [:])
        guard response.statusCode == 200 else {
            throw Failure(description: "admin \(method) \(path) answered \(response.statusCode): \(String(decoding: data, as: UTF8.self))")
        }
        return data
    }

    private func feature(_ data: Data) throws -> QuakeEvent {
        let page = CatalogFile.read(data, source: "stand-in admin answer")
        guard let event = page.events.first else { throw Failure(description: page.problem ?? "no feature in the admin answer") }
        return event
    }

    private func send(_ url: URL, method: String, body: Data?, headers: [String: String]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw Failure(description: "not an HTTP response from \(url)") }
        return (data, http)
    }
}

import Foundation
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeFetch

/// Reads a `bake` configuration file (YAML), so a crontab line stays short.
///
/// ```yaml
/// workspace: /var/lib/quake-bake
/// service: https://earthquake.usgs.gov/fdsnws/event/1/
/// selection: { start: 2024-01-01, min_magnitude: 2.5, bbox: "170,-50,-170,-10", event_types: [earthquake] }
/// fetch: { overlap: 10m, concurrency: 2, budget: 400, connect_timeout: 30, read_timeout: 120,
///         request_deadline: 60, max_body_mb: 100, max_retry_after: 10m, give_up_after: 120, max_attempts: 6, retry_delay: 1,
///         details: significant, details_per_run: 200, max_content_mb: 8 }
/// export: { out: /srv/quakes, min_zoom: 0, max_zoom: 10, cell_size: 64, per_cell: 1, magnitude_floor: "0:6,3:5",
///           stride: 1, clusters: true, keep: 3, deltas: true, recent_days: 30, since: 2024-06-01, min_magnitude: 3,
///           basemap: natural-earth }
/// publish: { to: s3://bucket/quakes, endpoint: http://127.0.0.1:8333, region: eu-west-1, keep: 3,
///            public_url: https://cdn.example.com/quakes/, credentials_file: /etc/quake-bake/credentials, profile: default }
/// max_rejects: 100
/// ```
/// Unknown keys are errors (a typo in a cron job's configuration must not pass silently).
public enum ConfigurationFile {
    /// The largest configuration file read: a real one is a few hundred bytes.
    static let maximumBytes = 1 << 20
    /// Reads the file at `url` on top of `base`.
    public static func read(_ url: URL, over base: BakeConfiguration = BakeConfiguration()) throws -> BakeConfiguration {
        let bytes: Data
        do {
            bytes = try InputFile.bytes(of: url, maxBytes: maximumBytes, for: .configuration)
        } catch {
            throw QuakeBakeError("cannot read the configuration \(url.path): \(error.description)", exitStatus: .usage)
        }
        return try parse(bytes, source: url.path, over: base)
    }

    /// Parses configuration bytes (UTF-8; invalid sequences read as U+FFFD); `source` names
    /// them in messages. Every mistake is a `QuakeBakeError` with exit status 64 naming `source`.
    public static func parse(_ bytes: Data, source: String, over base: BakeConfiguration = BakeConfiguration()) throws -> BakeConfiguration {
        try parse(String(decoding: bytes, as: UTF8.self), source: source, over: base)
    }

    /// Parses configuration text; `source` names it in messages.
    public static func parse(_ text: String, source: String, over base: BakeConfiguration = BakeConfiguration()) throws -> BakeConfiguration {
        let loaded = try ConfigurationYAML.values(of: text, source: source)
        var configuration = base
        guard let loaded else { return configuration }
        var top = try Section(loaded, path: source)
        // Relative paths are the configuration file's, as a person reading it takes them (cron
        // runs in the home directory, not beside the file); `~/` is the home directory.
        let directory = URL(fileURLWithPath: source).deletingLastPathComponent()
        func path(_ text: String) -> String { Self.path(text, beside: directory) }
        configuration.workspace = try top.string("workspace").map(path) ?? configuration.workspace
        if let service = try top.string("service") { configuration.fetch.service = try serviceURL(service, source: source) }
        configuration.maxRejects = try top.int("max_rejects") ?? configuration.maxRejects
        if var section = try top.section("selection") {
            try readSelection(&section, into: &configuration.selection)
            try section.finish()
        }
        if var section = try top.section("fetch") {
            try readFetch(&section, into: &configuration.fetch)
            try section.finish()
        }
        if var section = try top.section("export") {
            if let out = try section.string("out") { configuration.out = URL(fileURLWithPath: path(out)) }
            try readExport(&section, into: &configuration.export, beside: directory)
            try section.finish()
        }
        if var section = try top.section("publish") {
            configuration.publish = try readPublish(&section, beside: directory)
            try section.finish()
        }
        try top.finish()
        return configuration
    }

    private static func readSelection(_ s: inout Section, into selection: inout FetchSelection) throws {
        selection.start = try s.time("start") ?? selection.start
        selection.end = try s.time("end") ?? selection.end
        selection.minMagnitude = try s.double("min_magnitude") ?? selection.minMagnitude
        selection.maxMagnitude = try s.double("max_magnitude") ?? selection.maxMagnitude
        selection.minDepth = try s.double("min_depth") ?? selection.minDepth
        selection.maxDepth = try s.double("max_depth") ?? selection.maxDepth
        if let box = try s.numbers("bbox", count: 4) {
            selection.bbox = BoundingBox(west: box[0], south: box[1], east: box[2], north: box[3])
        }
        if let circle = try s.numbers("circle", count: 3) {
            selection.circle = FetchSelection.Circle(latitude: circle[0], longitude: circle[1], radiusKm: circle[2])
        }
        selection.eventTypes = try s.strings("event_types") ?? selection.eventTypes
        selection.catalog = try s.string("catalog") ?? selection.catalog
        do {
            try selection.validate()
        } catch let error as QuakeBakeError {
            throw QuakeBakeError("\(s.path): \(error.description)", exitStatus: .usage)
        }
    }

    private static func readFetch(_ s: inout Section, into fetch: inout FetchOptions) throws {
        if let service = try s.string("service") { fetch.service = try serviceURL(service, source: s.path) }
        typealias Limits = FetchOptions.Limits
        if let overlap = try s.duration("overlap", in: Limits.overlap) { fetch.overlap = Int64(overlap * 1000) }
        fetch.concurrency = try s.int("concurrency", in: Limits.concurrency) ?? fetch.concurrency
        fetch.requestBudget = try s.int("budget", in: Limits.budget) ?? fetch.requestBudget
        fetch.connectTimeout = try s.duration("connect_timeout", in: Limits.seconds) ?? fetch.connectTimeout
        fetch.readTimeout = try s.duration("read_timeout", in: Limits.seconds) ?? fetch.readTimeout
        fetch.requestDeadline = try s.duration("request_deadline", in: Limits.seconds) ?? fetch.requestDeadline
        if let megabytes = try s.int("max_body_mb", in: Limits.bodyMegabytes) { fetch.maxBodyBytes = megabytes << 20 }
        fetch.maxRetryAfter = try s.duration("max_retry_after", in: Limits.seconds) ?? fetch.maxRetryAfter
        fetch.giveUpAfter = try s.duration("give_up_after", in: Limits.seconds) ?? fetch.giveUpAfter
        fetch.maxAttempts = try s.int("max_attempts", in: Limits.attempts) ?? fetch.maxAttempts
        fetch.retryBaseDelay = try s.duration("retry_delay", in: Limits.retryDelay) ?? fetch.retryBaseDelay
        fetch.details = try s.choice("details", of: DetailPolicy.self) ?? fetch.details
        fetch.detailsPerRun = try s.int("details_per_run", in: Limits.detailsPerRun) ?? fetch.detailsPerRun
        if let megabytes = try s.int("max_content_mb", in: Limits.bodyMegabytes) { fetch.maxContentBytes = megabytes << 20 }
    }

    /// `text`, a path in the file: `~/…` in the home directory, a relative one in `directory`.
    static func path(_ text: String, beside directory: URL) -> String {
        let expanded = text == "~" || text.hasPrefix("~/") ? NSString(string: text).expandingTildeInPath : text
        return URL(fileURLWithPath: expanded, relativeTo: directory).standardizedFileURL.path
    }

    /// Reads the `export:` section: a key for each `ExportOption.configurable`, a relative
    /// `style` path taken from `directory` (the configuration file's).
    private static func readExport(_ s: inout Section, into export: inout ExportOptions, beside directory: URL) throws {
        for option in ExportOption.configurable {
            guard let key = option.key, let text = try s.text(key, form: option.form) else { continue }
            do {
                try option.set(option.form == .file ? Self.path(text, beside: directory) : text, in: &export)
            } catch let problem as OptionProblem {
                throw Section.error(s.path, "\(key): \(problem.reason)")
            }
        }
        do {
            try export.validate()
        } catch let error as QuakeBakeError {
            throw QuakeBakeError("\(s.path): \(error.description)", exitStatus: .usage)
        }
    }

    private static func serviceURL(_ text: String, source: String) throws -> URL {
        guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw QuakeBakeError("\(source): service \"\(text)\" is not an http(s) URL", exitStatus: .usage)
        }
        return url
    }
}

/// One mapping of the configuration, read key by key; what is left over at `finish()` is an unknown key.
struct Section {
    var values: [String: Any]
    let path: String

    init(_ value: Any, path: String) throws {
        guard let mapping = value as? [String: Any] else { throw Section.error(path, "should be a mapping of keys to values") }
        values = mapping
        self.path = path
    }

    static func error(_ path: String, _ message: String) -> QuakeBakeError {
        QuakeBakeError("configuration \(path) \(message)", exitStatus: .usage)
    }

    mutating func section(_ key: String) throws -> Section? {
        guard let value = take(key) else { return nil }
        return try Section(value, path: "\(path): \(key)")
    }

    func finish() throws {
        if !values.isEmpty {
            throw Section.error(path, "has unknown key\(values.count == 1 ? "" : "s") \(values.keys.sorted().joined(separator: ", "))")
        }
    }

    private mutating func take(_ key: String) -> Any? {
        guard let value = values.removeValue(forKey: key), !(value is NSNull) else { return nil }
        return value
    }

    /// A single value as text; a list or a mapping where one value belongs is a mistake.
    mutating func string(_ key: String) throws -> String? {
        guard let value = take(key) else { return nil }
        if value is [Any] || value is [String: Any] {
            throw Section.error(path, "\(key): should be a single value, not a \(value is [Any] ? "list" : "mapping")")
        }
        return "\(value)"
    }

    mutating func int(_ key: String) throws -> Int? {
        guard let text = try string(key) else { return nil }
        guard let number = Int(text) else { throw Section.error(path, "\(key): \"\(text.prefix(80))\" is not a whole number") }
        return number
    }

    mutating func double(_ key: String) throws -> Double? {
        guard let text = try string(key) else { return nil }
        guard let number = Double(text), number.isFinite else { throw Section.error(path, "\(key): \"\(text.prefix(80))\" is not a number") }
        return number
    }

    /// One of the named values of `T` (its raw values).
    mutating func choice<T: RawRepresentable & CaseIterable>(_ key: String, of: T.Type) throws -> T? where T.RawValue == String {
        guard let value = try string(key) else { return nil }
        guard let choice = T(rawValue: value) else {
            throw Section.error(path, "\(key): \"\(value.prefix(80))\" is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return choice
    }

    mutating func bool(_ key: String) throws -> Bool? {
        guard let value = take(key) else { return nil }
        guard let flag = value as? Bool else { throw Section.error(path, "\(key): \"\("\(value)".prefix(80))\" is not true or false") }
        return flag
    }

    mutating func time(_ key: String) throws -> Int64? {
        guard let text = try string(key) else { return nil }
        guard let ms = ISOTime.parse(text) else { throw Section.error(path, "\(key): \"\(text.prefix(80))\" is not an ISO-8601 time") }
        return ms
    }

    mutating func duration(_ key: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let value = try string(key) else { return nil }
        guard let seconds = DurationText.seconds(value) else {
            throw Section.error(path, "\(key): \"\(value.prefix(80))\" is not a duration (90, 90s, 10m, 2h, 1d)")
        }
        guard range.contains(seconds) else {
            throw Section.error(path, "\(key): \"\(value)\" \(FetchOptions.Limits.describe(range)) seconds")
        }
        return seconds
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let number = try int(key) else { return nil }
        guard range.contains(number) else { throw Section.error(path, "\(key): \(number) \(FetchOptions.Limits.describe(range))") }
        return number
    }

    /// An option's text: on or off from a YAML boolean, a list from a YAML list or comma-separated
    /// text, else a single value.
    mutating func text(_ key: String, form: ExportOption.Form) throws -> String? {
        switch form {
        case .onOff: try bool(key).map { String($0) }
        case .list: try strings(key)?.joined(separator: ",")
        case .value, .file: try string(key)
        }
    }

    /// `"a, b"` or `[a, b]`: texts, none of them a list or a mapping.
    mutating func strings(_ key: String) throws -> [String]? {
        guard let value = values[key] else { return nil }
        guard let list = value as? [Any] else { return try string(key)?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        _ = take(key)
        if list.contains(where: { $0 is [Any] || $0 is [String: Any] }) { throw Section.error(path, "\(key): should list single values") }
        return list.map { "\($0)" }
    }

    /// `"a,b,c"` or `[a, b, c]` with exactly `count` numbers.
    mutating func numbers(_ key: String, count: Int) throws -> [Double]? {
        guard let value = take(key) else { return nil }
        let items = (value as? [Any])?.map { "\($0)" } ?? "\(value)".split(separator: ",").map(String.init)
        let numbers = items.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == count, items.count == count else {
            throw Section.error(path, "\(key): \"\("\(value)".prefix(80))\" should be \(count) numbers")
        }
        return numbers
    }
}

import Foundation
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakePublish

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
        try read(&top, RunOption.topLevel, into: &configuration.run, beside: directory)
        // `service:` at the top, as a short file writes it; `fetch: service:` too.
        try read(&top, [FetchOption.service], into: &configuration.fetch, beside: directory)
        if var section = try top.section("selection") {
            try read(&section, SelectionOption.all, into: &configuration.selection, beside: directory)
            try section.check { try configuration.selection.validate() }
        }
        if var section = try top.section("fetch") {
            try read(&section, FetchOption.all, into: &configuration.fetch, beside: directory)
            try section.finish()
        }
        if var section = try top.section("export") {
            try read(&section, RunOption.exportSection, into: &configuration.run, beside: directory)
            try read(&section, ExportOption.configurable.map(\.declaration), into: &configuration.export, beside: directory)
            try section.check { try configuration.export.validate() }
        }
        if var section = try top.section("publish") {
            var publish = PublishOptions()
            try read(&section, PublishOption.all, into: &publish, beside: directory)
            guard !publish.to.isEmpty else { throw Section.error(section.path, "needs to: s3://BUCKET/PREFIX") }
            try section.check { _ = try publish.target() }
            configuration.publish = publish
        }
        try top.finish()
        return configuration
    }

    /// Reads a key for each of `declarations` that has one from `section` into `options`; a
    /// relative path (a `.file` or `.directory` option's) is taken from `directory` (the
    /// configuration file's); an empty one is left for the declaration to refuse.
    /// A wrong value is said naming the key, with the declaration's words.
    private static func read<Options>(_ section: inout Section, _ declarations: [OptionDeclaration<Options>], into options: inout Options,
                                      beside directory: URL) throws {
        for option in declarations {
            guard let key = option.key, let text = try section.text(key, form: option.form) else { continue }
            do {
                try option.set(option.form.isPath && !text.isEmpty ? path(text, beside: directory) : text, in: &options)
            } catch let problem as OptionProblem {
                throw Section.error(section.path, "\(key): \(problem.reason)")
            }
        }
    }

    /// `text`, a path in the file: `~/…` in the home directory, a relative one in `directory`.
    static func path(_ text: String, beside directory: URL) -> String {
        let expanded = text == "~" || text.hasPrefix("~/") ? NSString(string: text).expandingTildeInPath : text
        return URL(fileURLWithPath: expanded, relativeTo: directory).standardizedFileURL.path
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

    /// Checks, once every key is read, that none is left over and then what `check` checks (the
    /// options together), its usage error said as this section's.
    func check(_ check: () throws -> Void) throws {
        try finish()
        do {
            try check()
        } catch let error as QuakeBakeError {
            throw QuakeBakeError("\(path): \(error.description)", exitStatus: .usage)
        }
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

    mutating func bool(_ key: String) throws -> Bool? {
        guard let value = take(key) else { return nil }
        guard let flag = value as? Bool else { throw Section.error(path, "\(key): \"\("\(value)".prefix(80))\" is not true or false") }
        return flag
    }

    /// An option's text: on or off from a YAML boolean, a list from a YAML list or comma-separated
    /// text (an empty list: not given), else a single value.
    mutating func text(_ key: String, form: OptionForm) throws -> String? {
        switch form {
        case .onOff: try bool(key).map { String($0) }
        case .list: try strings(key).flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") }
        case .value, .file, .directory: try string(key)
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
}

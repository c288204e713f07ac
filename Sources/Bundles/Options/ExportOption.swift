import QuakeCatalog
import QuakeCommon

/// One option of an export, declared once: its flag, its configuration key, its key in the
/// manifest's `options`, where its value lives in `ExportOptions` (whose initial value there is
/// the default), how its text is read and checked, and its help. The command line (`BundleFlags`),
/// the configuration reader (`ConfigurationFile`'s `export:` section) and the manifest are all
/// made from `ExportOption.all`; a new option is one declaration there and one flag line.
public struct ExportOption: Sendable {
    /// How the option is written.
    public enum Form: Sendable, Equatable {
        /// One value after the flag (`--max-zoom 10`; `max_zoom: 10`).
        case value
        /// A comma-separated list (`--attributes id,mag`); in a configuration also a YAML list.
        case list
        /// A path to a file; in a configuration relative to the configuration's directory.
        case file
        /// On or off: `--clusters` / `--no-clusters`; `clusters: true` or `false`.
        case onOff
    }

    /// The `options` member of the manifest an option is written under.
    public enum ManifestGroup: String, Sendable {
        /// `options.selection`: which events.
        case selection
        /// `options.thinning`: how they are thinned per zoom.
        case thinning
        /// `options` itself.
        case top
    }

    /// The long flag, without `--` (`max-zoom`).
    public let flag: String
    /// The key under `export:` in a configuration file (`max_zoom`); `nil` for a hidden option,
    /// one the command line takes for tests and no configuration should need.
    public let key: String?
    /// Where the manifest's `options` hold the value; `nil` for an option that changes how a
    /// bundle is made, not what it holds.
    public let manifest: (group: ManifestGroup, key: String)?
    /// How it is written.
    public let form: Form
    /// The help's name for the value (`z`); empty for an on/off option.
    public let valueName: String
    /// What it does, for `--help`; `help` adds the default.
    public let summary: String
    /// The default as the help says it; `nil` when the help says it in `summary` or there is none.
    public let defaultText: String?
    /// The names it takes, when it takes one of a few (`--thinning`); empty otherwise.
    public let choices: [String]
    /// Reads a text into the option's place in the options; throws an `OptionProblem`.
    private let read: @Sendable (String, inout ExportOptions) throws -> Void
    /// The problem with the option's value in `options`, if any (the check alone, for options made in code).
    let problem: @Sendable (ExportOptions) -> String?
    /// The option's value in `options`, as the manifest writes it (`nil` when not in the manifest).
    let manifestValue: (@Sendable (ExportOptions) -> JSON)?

    /// Reads `text` (as the command line or a configuration gives it) into this option's place in
    /// `options`, checked; throws an `OptionProblem` saying what is wrong.
    public func set(_ text: String, in options: inout ExportOptions) throws {
        try read(text, &options)
    }

    /// `--` and the flag.
    public var longFlag: String { "--" + flag }
    /// Whether `--help` leaves the option out.
    public var isHidden: Bool { key == nil }
    /// The text of `--help`: the summary, the default and the choices.
    public var help: String {
        summary + (defaultText.map { " (default \($0))." } ?? "") + (choices.isEmpty ? "" : " (values: \(choices.joined(separator: ", ")))")
    }

    /// Declares an option whose value lives at `path`: `parse` reads its text (throwing a
    /// `QuakeBakeError` that says what is wrong), `choices` are the names it takes, if a few,
    /// `check` says what is wrong with a value
    /// (`"must be 0…16, not 17"`), `text` writes the default for the help (`nil`: the summary
    /// says it), `json` writes the value into the manifest (given with `manifest`).
    init<Value>(flag: String, key: String?, manifest: (ManifestGroup, String)?, at path: WritableKeyPath<ExportOptions, Value> & Sendable,
                form: Form = .value, valueName: String, summary: String, choices: [String] = [],
                parse: @escaping @Sendable (String) throws -> Value, check: @escaping @Sendable (Value) -> String? = { _ in nil },
                text: (@Sendable (Value) -> String)?, json: (@Sendable (Value) -> JSON)? = nil) {
        self.flag = flag
        self.key = key
        self.manifest = manifest.map { (group: $0.0, key: $0.1) }
        self.form = form
        self.valueName = valueName
        self.summary = summary
        self.choices = choices
        defaultText = text.map { $0(ExportOptions()[keyPath: path]) }
        let longFlag = "--" + flag
        read = { input, options in
            let value: Value
            do {
                value = try parse(input)
            } catch let error as QuakeBakeError {
                throw OptionProblem(error.description, naming: longFlag)
            } catch {
                throw OptionProblem("\(error)", naming: longFlag)
            }
            if let problem = check(value) { throw OptionProblem(problem, naming: longFlag) }
            options[keyPath: path] = value
        }
        problem = { check($0[keyPath: path]) }
        if let json {
            manifestValue = { json($0[keyPath: path]) }
        } else {
            manifestValue = nil
        }
    }
}

/// What is wrong with an option's text, said without naming the option (`"abc" is not a
/// whole number`), so the command line can name its flag and a configuration its key.
public struct OptionProblem: Error, Sendable {
    /// What is wrong.
    public let reason: String

    /// `message`, less a leading `flag` a parser shared with other commands puts first
    /// (`--bbox "1,2" is not …`, `--magnitude-floor: …`).
    init(_ message: String, naming flag: String) {
        var reason = Substring(message)
        if reason.hasPrefix(flag + ": ") { reason = reason.dropFirst(flag.count + 2) } else if reason.hasPrefix(flag + " ") { reason = reason.dropFirst(flag.count + 1) }
        self.reason = String(reason)
    }
}

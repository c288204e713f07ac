/// A set of options whose `init()` holds each one's default (`FetchOptions`, `ExportOptions`…):
/// a declaration's default is its place's value there, so a default is written once.
public protocol DeclaredOptions: Sendable {
    /// Every option at its default.
    init()
}

/// How an option is written, on the command line and in a configuration.
public enum OptionForm: Sendable, Equatable {
    /// One value after the flag (`--max-zoom 10`; `max_zoom: 10`).
    case value
    /// A comma-separated list (`--attributes id,mag`), or the flag repeated; in a configuration also a YAML list.
    case list
    /// A path to a file; in a configuration relative to the configuration's directory.
    case file
    /// A path to a directory; in a configuration relative to the configuration's directory.
    case directory
    /// On or off: `--clusters` / `--no-clusters`; `clusters: true` or `false`.
    case onOff

    /// Whether the value is a path (`.file`, `.directory`): a configuration's relative one is
    /// taken from the configuration's directory, and the command line does not take a word that
    /// looks like a flag for it (`--out --quiet` is a missing value, not a directory).
    public var isPath: Bool { self == .file || self == .directory }
}

/// One option, declared once: its flag, its configuration key, where its value lives in
/// `Options` (whose initial value there is the default), how its text is read and checked, and
/// its help. The command line (quake-bake's flags), the configuration reader
/// (`ConfigurationFile`) and the checks of options made in code are all made from declarations;
/// this module knows neither the argument parser nor YAML.
public struct OptionDeclaration<Options: DeclaredOptions>: Sendable {
    /// The long flag, without `--` (`max-zoom`).
    public let flag: String
    /// The key in a configuration file's section (`max_zoom`); `nil` for a hidden option, one
    /// the command line takes for tests and no configuration should need.
    public let key: String?
    /// How it is written.
    public let form: OptionForm
    /// The help's name for the value (`z`); empty for an on/off option.
    public let valueName: String
    /// The default as the help says it; `nil` when the help says it in `summary` or there is none.
    public let defaultText: String?
    /// The names it takes, when it takes one of a few (`--thinning`); empty otherwise.
    public let choices: [String]
    /// The text of `--help`: the summary with the default (at `{default}` in it, else after it)
    /// and the choices. Made once: ArgumentParser makes a command's flags again and again on every
    /// run of a debug build (its checks), and making this text each time was half of what making
    /// one of our flags cost (a profile of the replay's bakes: 3 % of each run).
    public private(set) var help: String
    /// Reads a text into the option's place in the options; throws an `OptionProblem`.
    private let read: @Sendable (String, inout Options) throws -> Void
    /// The problem with the option's value in `options`, if any (the check alone, for options made in code).
    public let problem: @Sendable (Options) -> String?

    /// `--` and the flag.
    public var longFlag: String { "--" + flag }
    /// Whether `--help` leaves the option out.
    public var isHidden: Bool { key == nil }
    /// `summary` with the default put in and the choices after it.
    private static func helpText(_ summary: String, defaultText: String?, choices: [String]) -> String {
        var text = summary
        if let defaultText {
            if text.contains("{default}") {
                text = text.replacingOccurrences(of: "{default}", with: defaultText)
            } else {
                text += " (default \(defaultText))."
            }
        }
        return text + (choices.isEmpty ? "" : " (values: \(choices.joined(separator: ", ")))")
    }

    /// The same option in other words: for a command that does something else with it (`publish
    /// --out` reads the bundle versions `export --out` writes), so every other part stays one.
    public func worded(_ summary: String) -> Self {
        var reworded = self
        reworded.help = Self.helpText(summary, defaultText: defaultText, choices: choices)
        return reworded
    }

    /// Reads `text` (as the command line or a configuration gives it) into this option's place in
    /// `options`, checked; throws an `OptionProblem` saying what is wrong.
    public func set(_ text: String, in options: inout Options) throws {
        try read(text, &options)
    }

    /// Declares an option whose value lives at `path`: `parse` reads its text (throwing a
    /// `QuakeBakeError` that says what is wrong without naming the option), `choices` are the
    /// names it takes, if a few, `check` says what is wrong with a value (`"must be 0…16, not
    /// 17"`), `text` writes the default for the help (`nil`: the summary says it, or there is none).
    public init<Value>(flag: String, key: String?, at path: WritableKeyPath<Options, Value> & Sendable,
                       form: OptionForm = .value, valueName: String, summary: String, choices: [String] = [],
                       parse: @escaping @Sendable (String) throws -> Value, check: @escaping @Sendable (Value) -> String? = { _ in nil },
                       text: (@Sendable (Value) -> String)?) {
        self.flag = flag
        self.key = key
        self.form = form
        self.valueName = valueName
        self.choices = choices
        defaultText = text.map { $0(Options()[keyPath: path]) }
        help = Self.helpText(summary, defaultText: defaultText, choices: choices)
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
    }

    /// Sets each option given a text (`nil`: not given) in `options`; throws a usage error
    /// naming the flag of the first that is wrong (`--keep must be at least 1, not 0`).
    public static func apply(_ given: [(Self, String?)], to options: inout Options) throws {
        for case let (option, text?) in given {
            do {
                try option.set(text, in: &options)
            } catch let problem as OptionProblem {
                throw QuakeBakeError("\(option.longFlag) \(problem.reason)", exitStatus: .usage)
            }
        }
    }

    /// The first problem the checks of `declarations` find in `options`, as a usage error naming the flag.
    public static func check(_ options: Options, against declarations: [Self]) throws {
        for option in declarations {
            if let problem = option.problem(options) { throw QuakeBakeError("\(option.longFlag) \(problem)", exitStatus: .usage) }
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

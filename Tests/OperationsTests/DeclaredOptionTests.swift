import Foundation
import QuakeCommon
import QuakeFetch
import QuakeOperations
import QuakePublish
import Testing
import TestSupport
@testable import quake_bake

/// Issue 49.3: each option of the fetch (`FetchOption`), of the selection (`SelectionOption`)
/// and of publishing (`PublishOption`) is declared once, and the flags of `fetch`, `bake` and
/// `publish`, their `--help`, the configuration's `selection:`, `fetch:` and `publish:` sections,
/// the defaults and the checks are all made from the declarations (as `ExportOptionTests` for export's).
@Suite struct DeclaredOptionTests {
    /// A value other than the default for every option, as the command line writes it.
    static let samples: [String: String] = [
        // selection:
        "start": "2024-01-01", "end": "2024-06-30T12:00:00Z", "min-magnitude": "2.5", "max-magnitude": "7", "min-depth": "-2", "max-depth": "70",
        "bbox": "170,-50,-170,-10", "circle": "35,-120,500", "event-type": "earthquake,quarry blast", "catalog": "us",
        // fetch:
        "service": "http://127.0.0.1:8080/fdsnws/event/1/", "overlap": "25h", "concurrency": "1", "budget": "100", "connect-timeout": "5",
        "read-timeout": "3m", "request-deadline": "90", "max-body": "50", "max-retry-after": "30", "give-up-after": "60", "max-attempts": "3",
        "retry-delay": "2", "details": "all", "details-per-run": "50", "max-content": "2",
        // publish: (`give-up-after` and `max-attempts` are taken above)
        "to": "s3://quakes/maps", "endpoint": "http://127.0.0.1:8333", "region": "eu-west-1", "keep": "5",
        "public-url": "https://cdn.example.com/quakes/", "credentials-file": "credentials", "profile": "ci",
    ]

    /// A wrong value for every option that has one, as the command line writes it.
    static let mistakes: [String: String] = [
        "start": "yesterday", "end": "2024-13-45", "min-magnitude": "abc", "max-magnitude": "nan", "min-depth": "deep", "max-depth": "1e999",
        "bbox": "1,2,3", "circle": "91,0,100", "event-type": "", "catalog": "",
        "service": "ftp://example.org", "overlap": "400d", "concurrency": "17", "budget": "0", "connect-timeout": "2d", "read-timeout": "soon",
        "request-deadline": "nan", "max-body": "5000", "max-retry-after": "-1", "give-up-after": "0", "max-attempts": "0", "retry-delay": "2h",
        "details": "some", "details-per-run": "-1", "max-content": "0",
        "keep": "0", "public-url": "ftp://example.org/quakes",
    ]

    /// One family of declarations, with what the tests need of it whatever its options' type.
    struct Family: Sendable, CustomTestStringConvertible {
        /// The configuration's section (`fetch`).
        let section: String
        /// The commands whose flags they are (`fetch`, `bake`).
        let commands: [String]
        let options: [Option]
        /// The options at their defaults, as text (`String(describing:)`).
        let defaults: String
        /// The options a configuration gives, as text (`nil`: the section was not there).
        let configured: @Sendable (BakeConfiguration) -> String?
        /// The options the flags `arguments` give over the defaults, as text.
        let flagged: @Sendable ([String]) throws -> String
        /// The options with `given` set through the declarations (`flag: text`), as text.
        let declared: @Sendable ([String: String]) throws -> String

        var testDescription: String { section }

        /// One declaration, erased.
        struct Option: Sendable {
            let flag: String, key: String?, form: OptionForm, valueName: String, help: String, defaultText: String?, choices: [String]
            var longFlag: String { "--" + flag }
        }

        init<Options, Flags: DeclaredFlags>(_ section: String, commands: [String], _ declarations: [OptionDeclaration<Options>], flags: Flags.Type,
                                            configured: @escaping @Sendable (BakeConfiguration) -> Options?) where Flags.Options == Options {
            self.section = section
            self.commands = commands
            options = declarations.map {
                Option(flag: $0.flag, key: $0.key, form: $0.form, valueName: $0.valueName, help: $0.help, defaultText: $0.defaultText, choices: $0.choices)
            }
            defaults = "\(Options())"
            self.configured = { configured($0).map { "\($0)" } }
            flagged = { arguments in
                var options = Options()
                try Flags.parse(arguments).apply(to: &options)
                return "\(options)"
            }
            declared = { given in
                var options = Options()
                for declaration in declarations {
                    if let text = given[declaration.flag] { try declaration.set(text, in: &options) }
                }
                return "\(options)"
            }
        }
    }

    static let families: [Family] = [
        Family("selection", commands: ["fetch", "bake"], SelectionOption.all, flags: SelectionFlags.self, configured: { $0.selection }),
        Family("fetch", commands: ["fetch", "bake"], FetchOption.all, flags: FetchFlags.self, configured: { $0.fetch }),
        Family("publish", commands: ["publish"], PublishOption.all, flags: PublishFlags.self, configured: { $0.publish }),
    ]

    /// The sample of `option`, a file's path made absolute in `directory`.
    static func sample(_ option: Family.Option, in directory: URL) -> String {
        let text = samples[option.flag] ?? ""
        return option.form == .file ? directory.appendingPathComponent(text).path : text
    }

    /// `option` set to `text` on the command line: the flag and its value, or `--x` / `--no-x`.
    static func arguments(_ option: Family.Option, _ text: String) -> [String] {
        option.form == .onOff ? [text == "true" ? option.longFlag : "--no-" + option.flag] : [option.longFlag, text]
    }

    /// Every option has a sample that is not the default; flags and keys are each used once in a
    /// family; every option has a key (none is hidden).
    @Test(arguments: families)
    func theDeclarationsAreWholeAndDistinct(family: Family) throws {
        for option in family.options {
            let sample = try #require(Self.samples[option.flag], "a sample for \(option.flag)")
            #expect(try family.declared([option.flag: sample]) != family.defaults, "\(option.flag)'s sample changes the options")
            #expect(option.key != nil, "\(option.flag) has a configuration key")
        }
        #expect(Set(family.options.map(\.flag)).count == family.options.count)
        #expect(Set(family.options.compactMap(\.key)).count == family.options.count)
    }

    /// Every key of the section lands where its flag does: the configuration with every sample
    /// gives what the flags with every sample give, and what the declarations give; a relative
    /// path is the configuration file's.
    @Test(arguments: families)
    func aKeyGivesWhatItsFlagGives(family: Family) throws {
        let directory = TemporaryDirectory("declared")
        var lines = ["\(family.section):"], arguments: [String] = [], given: [String: String] = [:]
        for option in family.options {
            let text = Self.samples[option.flag] ?? ""
            let value = option.form == .list ? "[" + text.split(separator: ",").joined(separator: ", ") + "]" : text
            lines.append("  \(option.key ?? ""): \(value)")
            arguments += Self.arguments(option, Self.sample(option, in: directory.url))
            given[option.flag] = Self.sample(option, in: directory.url)
        }
        let configuration = try ConfigurationFile.parse(lines.joined(separator: "\n"), source: directory.path("bake.yaml").path)
        let configured = try #require(family.configured(configuration))
        #expect(configured == (try family.flagged(arguments)))
        #expect(configured == (try family.declared(given)))
        #expect(configured != family.defaults)
    }

    /// Each option alone: its key and its flag give the same options.
    @Test(arguments: families)
    func eachKeyAloneGivesWhatItsFlagGives(family: Family) throws {
        let directory = TemporaryDirectory("declared")
        for option in family.options where option.flag != "to" {
            let text = Self.samples[option.flag] ?? ""
            let value = option.form == .list ? "[" + text.split(separator: ",").joined(separator: ", ") + "]" : text
            let to = family.section == "publish" ? "  to: s3://quakes/maps\n" : ""
            let configuration = try ConfigurationFile.parse("\(family.section):\n\(to)  \(option.key ?? ""): \(value)\n",
                                                            source: directory.path("bake.yaml").path)
            let flags = Self.arguments(option, Self.sample(option, in: directory.url)) + (to.isEmpty ? [] : ["--to", "s3://quakes/maps"])
            #expect(family.configured(configuration) == (try family.flagged(flags)), "\(option.flag)")
        }
    }

    /// The defaults are the declared ones: what the help says is the default is what an option
    /// not given takes (`--concurrency 2` changes nothing), and an empty configuration keeps them.
    @Test(arguments: families)
    func theDefaultsAreTheDeclaredOnes(family: Family) throws {
        for option in family.options {
            guard let text = option.defaultText else { continue }
            #expect(try family.declared([option.flag: text]) == family.defaults, "\(option.flag) \(text)")
            #expect(option.help.contains(text), "\(option.flag)'s help says its default \(text)")
        }
        #expect(family.options.contains { $0.defaultText != nil } == (family.section != "selection"))
        let empty = try ConfigurationFile.parse("max_rejects: 100", source: "bake.yaml")
        #expect(family.configured(empty) == (family.section == "publish" ? nil : family.defaults))
    }

    /// A wrong value is refused by the declared check, in the same words by its flag (exit 64)
    /// and by its key (naming the file, the section and the key).
    @Test(arguments: families)
    func aWrongValueIsSaidByItsFlagAndByItsKey(family: Family) async throws {
        let directory = TemporaryDirectory("declared")
        let checked = family.options.filter { Self.mistakes[$0.flag] != nil }
        #expect(checked.count >= (family.section == "publish" ? 4 : family.options.count), "a mistake for each checked option")
        for option in checked {
            let text = try #require(Self.mistakes[option.flag])
            var reason = ""
            do {
                _ = try family.declared([option.flag: text])
                Issue.record("\(option.flag) \(text) was accepted")
            } catch let problem as OptionProblem {
                reason = problem.reason
            }
            #expect(!reason.isEmpty && !reason.contains(option.longFlag), "\(option.flag): \(reason)")

            let file = directory.path("bake.yaml").path
            let to = family.section == "publish" ? "  to: s3://quakes/maps\n" : ""
            let value = option.form == .list
                ? "[" + text.split(separator: ",", omittingEmptySubsequences: false).map { "\"\($0)\"" }.joined(separator: ", ") + "]" : "\"\(text)\""
            do {
                _ = try ConfigurationFile.parse("\(family.section):\n\(to)  \(option.key ?? ""): \(value)\n", source: file)
                Issue.record("\(option.key ?? "") \(text) was accepted")
            } catch let error as QuakeBakeError {
                #expect(error.kind == .usage && error.description == "configuration \(file): \(family.section) \(option.key ?? ""): \(reason)",
                        "\(error.description)")
            }

            let command = family.commands[0]
            let extra = command == "publish" ? ["--to", "s3://quakes/maps"] : []
            let run = try await QuakeBakeCLI.run([command, "--workspace", directory.path("ws").path] + extra + Self.arguments(option, text))
            #expect(run.status == 64 && run.standardError.contains("Error: \(option.longFlag) \(reason)\n"), "\(run.standardError)")
        }
    }

    /// `--help` of each command shows each declared option with its value's name and the declared
    /// help, and has no option the declarations lack but its own and every command's.
    @Test(arguments: ["fetch", "bake", "publish"])
    func theHelpIsTheDeclarations(command: String) async throws {
        let help = try await QuakeBakeCLI.run([command, "--help"]).checked().standardOutput
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let families = Self.families.filter { $0.commands.contains(command) }
        for option in families.flatMap(\.options) {
            #expect(words.contains("\(option.longFlag) <\(option.valueName)>"), "\(command) --help shows \(option.longFlag) <\(option.valueName)>")
            #expect(words.contains(option.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(command) --help says \(option.help)")
        }
        let listed = Set(help.split(separator: "\n").compactMap { $0.firstMatch(of: /^\s+(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)/).map { String($0.1) } })
        let own: [String: Set<String>] = ["fetch": ["incremental", "full"], "bake": ["incremental", "full", "config", "out", "max-rejects"],
                                          "publish": ["config", "bundle", "out"]]
        let declared = Set(families.flatMap(\.options).map(\.flag)).union(own[command] ?? []).union(["workspace", "quiet", "verbose", "log-format", "help", "version"])
        let exported = command == "bake" ? Set(ExportOptionTests.samples.keys) : []
        #expect(listed.subtracting(declared).subtracting(exported).isEmpty, "undeclared: \(listed.subtracting(declared).subtracting(exported))")
    }

    /// A shell completes an option of a few names with them (`--details significant|all|none`),
    /// and a file option with files.
    @Test func theShellCompletesTheChoices() async throws {
        let script = try await QuakeBakeCLI.run(["--generate-completion-script", "bash"]).checked().standardOutput
        let options = Self.families.flatMap(\.options)
        for option in options where !option.choices.isEmpty {
            #expect(script.contains("'" + option.choices.joined(separator: "'$'\\n''") + "'"), "\(option.flag)")
        }
        #expect(options.filter { !$0.choices.isEmpty }.map(\.flag) == ["details"])
        #expect(options.filter { $0.form == .file }.map(\.flag) == ["credentials-file"])
    }

    /// docs/guide/bake.md lists each section's keys: every declared one, no other.
    @Test(arguments: families)
    func theGuideListsEveryKey(family: Family) throws {
        let guide = try String(contentsOf: TestData.projectRoot.appendingPathComponent("docs/guide/bake.md"), encoding: .utf8)
        let row = try #require(guide.split(separator: "\n").first { $0.hasPrefix("| `\(family.section):` |") })
        let listed = row.matches(of: /`([a-z_]+)`/).map { String($0.1) }.filter { $0 != family.section }
        #expect(Set(listed) == Set(family.options.compactMap(\.key)), "\(row)")
    }
}

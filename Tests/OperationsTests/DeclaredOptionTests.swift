import Foundation
import QuakeCommon
import QuakeFetch
import QuakeOperations
import QuakePublish
import Testing
import TestSupport
@testable import quake_bake

/// Issue 49.3: each option of the fetch (`FetchOption`), of the selection (`SelectionOption`),
/// of publishing (`PublishOption`) and of a run (`RunOption`: `--workspace`, `--out`,
/// `--max-rejects`) is declared once, and the commands' flags, their `--help`, the
/// configuration's keys (`selection:`, `fetch:`, `publish:`, `workspace`, `max_rejects`,
/// `export: out`), the defaults and the checks are all made from the declarations (as
/// `ExportOptionTests` for export's).
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
        // a run's:
        "workspace": "ws", "out": "public", "max-rejects": "5",
    ]

    /// A wrong value for every option that has one, as the command line writes it.
    static let mistakes: [String: String] = [
        "start": "yesterday", "end": "2024-13-45", "min-magnitude": "abc", "max-magnitude": "nan", "min-depth": "deep", "max-depth": "1e999",
        "bbox": "1,2,3", "circle": "91,0,100", "event-type": "", "catalog": "",
        "service": "ftp://example.org", "overlap": "400d", "concurrency": "17", "budget": "0", "connect-timeout": "2d", "read-timeout": "soon",
        "request-deadline": "nan", "max-body": "5000", "max-retry-after": "-1", "give-up-after": "0", "max-attempts": "0", "retry-delay": "2h",
        "details": "some", "details-per-run": "-1", "max-content": "0",
        "keep": "0", "public-url": "ftp://example.org/quakes",
        "workspace": "", "out": "", "max-rejects": "-1",
    ]

    static let families: [Family] = [
        Family("selection", commands: ["fetch", "bake"], SelectionOption.all, flags: SelectionFlags.self, configured: { $0.selection }),
        Family("fetch", commands: ["fetch", "bake"], FetchOption.all, flags: FetchFlags.self, configured: { $0.fetch }),
        Family("publish", commands: ["publish"], PublishOption.all, flags: PublishFlags.self, configured: { $0.publish }),
        Family("run", [
            (.workspace, section: nil, commands: ["bake", "fetch", "index", "export", "publish", "status", "serve"].map { ($0, .workspace) }),
            (.out, section: "export", commands: [("bake", .out), ("export", .out), ("publish", .outRead), ("status", .outRead)]),
            (.maxRejects, section: nil, commands: [("bake", .maxRejects), ("index", .maxRejects)]),
        ], configured: { $0.run }, flagged: { try BakeCommand.parse($0).runOptions() }),
    ]

    /// The commands, each with the flags it takes besides the declared ones: its own (`pull`'s
    /// `--from` and `--to` are not `index`'s and `publish`'s), and those of every command.
    static let ownFlags: [String: Set<String>] = ([
        "fetch": ["incremental", "full"], "index": ["from", "max-file-size", "rebuild"], "export": ["full"],
        "publish": ["config", "bundle"], "bake": ["incremental", "full", "config"], "status": ["json"],
        "serve": ["bundle", "port", "host", "timeout", "max-connections"], "pull": ["from", "to", "all-files"],
    ] as [String: Set<String>]).mapValues { $0.union(["quiet", "verbose", "log-format", "help", "version"]) }

    /// The sample of `option`, a path made absolute in `directory`.
    static func sample(_ option: Family.Option, in directory: URL) -> String {
        let text = samples[option.flag] ?? ""
        return option.form.isPath ? directory.appendingPathComponent(text).path : text
    }

    /// A configuration giving each of `entries` (an option and its value as YAML writes it) in
    /// its section, a `publish:` section with the `to:` it needs.
    static func configuration(_ entries: [(option: Family.Option, value: String)]) -> String {
        var lines = entries.filter { $0.option.section == nil }.map { "\($0.option.key ?? ""): \($0.value)" }
        let sections = entries.compactMap(\.option.section).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for section in sections {
            let inside = entries.filter { $0.option.section == section }
            lines.append("\(section):")
            if section == "publish" && !inside.contains(where: { $0.option.flag == "to" }) { lines.append("  to: s3://quakes/maps") }
            lines += inside.map { "  \($0.option.key ?? ""): \($0.value)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as YAML writes `option`'s value: a list as a list.
    static func yaml(_ option: Family.Option, _ text: String) -> String {
        option.form == .list ? "[" + text.split(separator: ",").joined(separator: ", ") + "]" : text
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
        var arguments: [String] = [], given: [String: String] = [:]
        for option in family.options {
            arguments += Self.arguments(option, Self.sample(option, in: directory.url))
            given[option.flag] = Self.sample(option, in: directory.url)
        }
        let text = Self.configuration(family.options.map { ($0, Self.yaml($0, Self.samples[$0.flag] ?? "")) })
        let configuration = try ConfigurationFile.parse(text, source: directory.path("bake.yaml").path)
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
            let configuration = try ConfigurationFile.parse(Self.configuration([(option, Self.yaml(option, Self.samples[option.flag] ?? ""))]),
                                                            source: directory.path("bake.yaml").path)
            let to = option.section == "publish" ? ["--to", "s3://quakes/maps"] : []
            let flags = Self.arguments(option, Self.sample(option, in: directory.url)) + to
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
            for (command, help) in option.helps { #expect(help.contains(text), "\(option.flag)'s help in \(command) says its default \(text)") }
        }
        #expect(family.options.contains { $0.defaultText != nil } == (family.name != "selection"))
        let empty = try ConfigurationFile.parse("max_rejects: 100", source: "bake.yaml")
        #expect(family.configured(empty) == (family.name == "publish" ? nil : family.defaults))
    }

    /// A wrong value is refused by the declared check, in the same words by its flag (exit 64)
    /// and by its key (naming the file, the section and the key).
    @Test(arguments: families)
    func aWrongValueIsSaidByItsFlagAndByItsKey(family: Family) async throws {
        let directory = TemporaryDirectory("declared")
        let checked = family.options.filter { Self.mistakes[$0.flag] != nil }
        #expect(checked.count >= (family.name == "publish" ? 4 : family.options.count), "a mistake for each checked option")
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
            let value = option.form == .list
                ? "[" + text.split(separator: ",", omittingEmptySubsequences: false).map { "\"\($0)\"" }.joined(separator: ", ") + "]" : "\"\(text)\""
            do {
                _ = try ConfigurationFile.parse(Self.configuration([(option, value)]), source: file)
                Issue.record("\(option.key ?? "") \(text) was accepted")
            } catch let error as QuakeBakeError {
                let section = option.section.map { ": \($0)" } ?? ""
                #expect(error.kind == .usage && error.description == "configuration \(file)\(section) \(option.key ?? ""): \(reason)",
                        "\(error.description)")
            }

            for command in option.commands {
                let extra = command == "publish" ? ["--to", "s3://quakes/maps"] : []
                let run = try await QuakeBakeCLI.run([command, "--workspace", directory.path("ws").path] + extra + Self.arguments(option, text))
                #expect(run.status == 64 && run.standardError.contains("Error: \(option.longFlag) \(reason)\n"), "\(command): \(run.standardError)")
            }
        }
    }

    /// `--help` of each command shows each declared option it takes with its value's name and
    /// the declared help (in that command's words), and has no option the declarations lack but
    /// its own and every command's (so `pull`, which works in no workspace, has no `--workspace`).
    @Test(arguments: ["fetch", "index", "export", "publish", "bake", "status", "serve", "pull"])
    func theHelpIsTheDeclarations(command: String) async throws {
        let help = try await QuakeBakeCLI.run([command, "--help"]).checked().standardOutput
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let listed = Set(help.split(separator: "\n").compactMap { $0.firstMatch(of: /^\s+(?:-[a-zA-Z], )?--([a-z][a-z0-9-]*)/).map { String($0.1) } })
        let taken = Self.families.flatMap(\.options).compactMap { option in option.helps.first { $0.command == command }.map { (option, $0.help) } }
        for (option, text) in taken {
            #expect(words.contains("\(option.longFlag) <\(option.valueName)>"), "\(command) --help shows \(option.longFlag) <\(option.valueName)>")
            #expect(words.contains(text.split(whereSeparator: \.isWhitespace).joined(separator: " ")), "\(command) --help says \(text)")
        }
        let own = try #require(Self.ownFlags[command])
        let declared = Set(taken.map(\.0.flag)).union(own)
        let exported = ["bake", "export"].contains(command) ? Set(ExportOptionTests.samples.keys) : []
        #expect(listed.subtracting(declared).subtracting(exported).isEmpty, "undeclared: \(listed.subtracting(declared).subtracting(exported))")
    }

    /// `--out` is one option in two commands' words: the same flag, key, default and check, where
    /// `export` and `bake` write the versions and where `publish` and `status` find them.
    @Test func theOutOfEveryCommandIsOneOption() throws {
        let written = RunOption.out, read = RunOption.outRead
        #expect(written.flag == read.flag && written.key == read.key && written.form == read.form && written.valueName == read.valueName)
        #expect(written.help != read.help && written.help.contains("<workspace>/bundles") && read.help.contains("<workspace>/bundles"))
        var one = RunOptions(), other = RunOptions()
        try written.set("/srv/quakes", in: &one)
        try read.set("/srv/quakes", in: &other)
        #expect(one == other && one.out?.path == "/srv/quakes")
        #expect(throws: OptionProblem.self) { try read.set("", in: &other) }
    }

    /// A shell completes an option of a few names with them (`--details significant|all|none`),
    /// a file option with files, a directory option with directories.
    @Test func theShellCompletesTheChoices() async throws {
        let script = try await QuakeBakeCLI.run(["--generate-completion-script", "bash"]).checked().standardOutput
        let options = Self.families.flatMap(\.options)
        for option in options where !option.choices.isEmpty {
            #expect(script.contains("'" + option.choices.joined(separator: "'$'\\n''") + "'"), "\(option.flag)")
        }
        #expect(options.filter { !$0.choices.isEmpty }.map(\.flag) == ["details"])
        #expect(options.filter { $0.form == .file }.map(\.flag) == ["credentials-file"])
        #expect(options.filter { $0.form == .directory }.map(\.flag) == ["workspace", "out"])
        for option in options where option.form == .directory {
            #expect(script.contains("'\(option.longFlag)')\n        __quake-bake_add_completions -d\n"), "\(option.flag) completes directories")
        }
    }

    /// docs/guide/bake.md lists each section's keys: every declared one, no other; the top
    /// level's each with its flag.
    @Test(arguments: families)
    func theGuideListsEveryKey(family: Family) throws {
        let guide = try String(contentsOf: TestData.projectRoot.appendingPathComponent("docs/guide/bake.md"), encoding: .utf8)
        for section in Set(family.options.map(\.section)) {
            let name = section.map { "`\($0):`" } ?? "(top)"
            let row = try #require(guide.split(separator: "\n").first { $0.hasPrefix("| \(name) |") })
            let listed = Set(row.matches(of: /`([a-z_]+)`/).map { String($0.1) }.filter { $0 != section })
            let keys = Set(family.options.filter { $0.section == section }.compactMap(\.key))
            if family.name == "run" {
                // Other families' keys share the top (`service`) and `export:`: theirs are checked there.
                #expect(listed.isSuperset(of: keys), "\(row)")
            } else {
                #expect(listed == keys, "\(row)")
            }
            for option in family.options where section == nil && option.section == nil {
                #expect(row.contains("`\(option.key ?? "")` (`\(option.longFlag)`)"), "\(row)")
            }
        }
        if family.name == "run" {
            let top = try #require(guide.split(separator: "\n").first { $0.hasPrefix("| (top) |") })
            let keys = RunOption.topLevel.compactMap(\.key) + [FetchOption.service.key].compactMap { $0 }
            #expect(Set(top.matches(of: /`([a-z_]+)`/).map { String($0.1) }) == Set(keys), "the top level: the run's keys and `service`")
        }
    }
}

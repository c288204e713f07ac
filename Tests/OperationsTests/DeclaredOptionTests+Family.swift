import Foundation
import QuakeCommon
import QuakeOperations
import Testing
@testable import quake_bake

extension DeclaredOptionTests {
    /// One family of declarations, with what the tests need of it whatever its options' type.
    struct Family: Sendable, CustomTestStringConvertible {
        /// The family's name: its configuration section (`fetch`), or `run`.
        let name: String
        let options: [Option]
        /// The options at their defaults, as text (`String(describing:)`).
        let defaults: String
        /// The options a configuration gives, as text (`nil`: the section was not there).
        let configured: @Sendable (BakeConfiguration) -> String?
        /// The options the flags `arguments` give over the defaults, as text.
        let flagged: @Sendable ([String]) throws -> String
        /// The options with `given` set through the declarations (`flag: text`), as text.
        let declared: @Sendable ([String: String]) throws -> String

        var testDescription: String { name }

        /// One declaration, erased.
        struct Option: Sendable {
            let flag: String, key: String?, form: OptionForm, valueName: String, defaultText: String?, choices: [String]
            /// The configuration's section its key is in; `nil`: the top level.
            let section: String?
            /// The commands that take its flag (the first one's flags are `flagged`'s), each with its help there.
            let helps: [(command: String, help: String)]
            var longFlag: String { "--" + flag }
            var commands: [String] { helps.map(\.command) }
        }

        /// Options whose flags `Flags` makes, for `commands`, in the configuration's `section`.
        init<Options, Flags: DeclaredFlags>(_ section: String, commands: [String], _ declarations: [OptionDeclaration<Options>], flags: Flags.Type,
                                            configured: @escaping @Sendable (BakeConfiguration) -> Options?) where Flags.Options == Options {
            let taken = declarations.map { declaration in (declaration, section: Optional(section), commands: commands.map { ($0, declaration) }) }
            self.init(section, taken, configured: configured) { arguments in
                var options = Options()
                try Flags.parse(arguments).apply(to: &options)
                return options
            }
        }

        /// Options each in its section (`nil`: the top level), each taken by its commands in its
        /// words there; `flagged` reads the flags of the first command.
        init<Options>(_ name: String, _ declarations: [(OptionDeclaration<Options>, section: String?, commands: [(String, OptionDeclaration<Options>)])],
                      configured: @escaping @Sendable (BakeConfiguration) -> Options?, flagged: @escaping @Sendable ([String]) throws -> Options) {
            self.name = name
            options = declarations.map { declaration, section, commands in
                Option(flag: declaration.flag, key: declaration.key, form: declaration.form, valueName: declaration.valueName,
                       defaultText: declaration.defaultText, choices: declaration.choices, section: section,
                       helps: commands.map { ($0.0, $0.1.help) })
            }
            defaults = "\(Options())"
            self.configured = { configured($0).map { "\($0)" } }
            self.flagged = { "\(try flagged($0))" }
            let each = declarations.map(\.0)
            declared = { given in
                var options = Options()
                for declaration in each {
                    if let text = given[declaration.flag] { try declaration.set(text, in: &options) }
                }
                return "\(options)"
            }
        }
    }
}

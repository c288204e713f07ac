import ArgumentParser
import QuakeBundles
import QuakeCommon

/// Flags that set declared options (`OptionDeclaration`), each named and explained by its
/// declaration. Only the flags given change anything, so `bake --config` can supply the rest.
protocol DeclaredFlags<Options>: ParsableArguments {
    associatedtype Options: DeclaredOptions
    /// Sets the options these flags give; throws a usage error naming the flag that is wrong.
    func apply(to options: inout Options) throws
}

extension DeclaredFlags {
    /// A flag's mistake, in ArgumentParser's form (`Error: …` and the usage, exit 64).
    func validate() throws {
        var options = Options()
        do { try apply(to: &options) } catch let error as QuakeBakeError { throw ValidationError(error.description) }
    }
}

extension Option where Value == String? {
    /// The option `declaration` declares: its flag, its help, how a shell completes it; the
    /// value is taken whatever it looks like (`--min-depth -5`, `--bbox -170,…`), but for a path,
    /// which is not a word that looks like a flag (`--out --quiet` is a missing value).
    init<Options>(_ declaration: OptionDeclaration<Options>) {
        self.init(name: .customLong(declaration.flag), parsing: declaration.form.isPath ? .next : .unconditional,
                  help: .option(declaration), completion: .option(declaration))
    }

    /// The option `option` declares.
    init(_ option: ExportOption) { self.init(option.declaration) }
}

extension Option where Value == [String] {
    /// The option `declaration` declares, repeatable (`--event-type a --event-type b`).
    init<Options>(wrappedValue: [String], _ declaration: OptionDeclaration<Options>) {
        self.init(wrappedValue: wrappedValue, name: .customLong(declaration.flag), parsing: .unconditionalSingleValue,
                  help: .option(declaration), completion: .option(declaration))
    }

    /// The option `option` declares, repeatable.
    init(wrappedValue: [String], _ option: ExportOption) { self.init(wrappedValue: wrappedValue, option.declaration) }
}

extension Flag where Value == Bool? {
    /// The on/off option `option` declares: `--x` and `--no-x`.
    init(_ option: ExportOption) {
        self.init(name: .customLong(option.flag), inversion: .prefixedNo, help: .option(option.declaration))
    }
}

extension ArgumentHelp {
    /// The help `declaration` declares; hidden for an option without a configuration key.
    static func option<Options>(_ declaration: OptionDeclaration<Options>) -> ArgumentHelp {
        ArgumentHelp(declaration.help, valueName: declaration.valueName.isEmpty ? nil : declaration.valueName,
                     visibility: declaration.isHidden ? .hidden : .default)
    }
}

extension CompletionKind {
    /// How a shell completes `declaration`'s value: its choices, a file, a directory, or as any other word.
    static func option<Options>(_ declaration: OptionDeclaration<Options>) -> CompletionKind {
        if !declaration.choices.isEmpty { return .list(declaration.choices) }
        switch declaration.form {
        case .file: return .file()
        case .directory: return .directory
        case .value, .list, .onOff: return .default
        }
    }
}

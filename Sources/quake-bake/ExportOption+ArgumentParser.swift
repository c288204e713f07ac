import ArgumentParser
import QuakeBundles
import QuakeCommon

/// Flags that set `ExportOption`s, each named and explained by its declaration.
protocol ExportOptionFlags: ParsableArguments {
    /// Sets the options these flags give; throws a usage error naming the flag that is wrong.
    func apply(to options: inout ExportOptions) throws
}

extension ExportOptionFlags {
    /// A flag's mistake, in ArgumentParser's form (`Error: …` and the usage, exit 64).
    func validate() throws {
        var options = ExportOptions()
        do { try apply(to: &options) } catch let error as QuakeBakeError { throw ValidationError(error.description) }
    }
}

extension NameSpecification {
    /// The long flag `option` declares.
    static func option(_ option: ExportOption) -> NameSpecification { .customLong(option.flag) }
}

extension ArgumentHelp {
    /// The help `option` declares; hidden for an option without a configuration key.
    static func option(_ option: ExportOption) -> ArgumentHelp {
        ArgumentHelp(option.help, valueName: option.valueName.isEmpty ? nil : option.valueName, visibility: option.isHidden ? .hidden : .default)
    }
}

extension CompletionKind {
    /// How a shell completes `option`'s value: its choices, a file, or as any other word.
    static func option(_ option: ExportOption) -> CompletionKind {
        option.choices.isEmpty ? (option.form == .file ? .file() : .default) : .list(option.choices)
    }
}

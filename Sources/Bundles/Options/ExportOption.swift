import QuakeCatalog
import QuakeCommon

/// One option of an export, declared once: its `OptionDeclaration` (flag, configuration key,
/// where its value lives in `ExportOptions`, whose initial value there is the default, how its
/// text is read and checked, its help) and its key in the manifest's `options`. The command line
/// (`BundleFlags`), the configuration reader (`ConfigurationFile`'s `export:` section) and the
/// manifest are all made from `ExportOption.all`; a new option is one declaration there and one flag line.
@dynamicMemberLookup
public struct ExportOption: Sendable {
    /// How the option is written.
    public typealias Form = OptionForm

    /// The `options` member of the manifest an option is written under.
    public enum ManifestGroup: String, Sendable {
        /// `options.selection`: which events.
        case selection
        /// `options.thinning`: how they are thinned per zoom.
        case thinning
        /// `options` itself.
        case top
    }

    /// The flag, the key, the reading, the check and the help.
    public let declaration: OptionDeclaration<ExportOptions>
    /// Where the manifest's `options` hold the value; `nil` for an option that changes how a
    /// bundle is made, not what it holds.
    public let manifest: (group: ManifestGroup, key: String)?
    /// The option's value in `options`, as the manifest writes it (`nil` when not in the manifest).
    let manifestValue: (@Sendable (ExportOptions) -> JSON)?

    /// The declaration's `flag`, `key`, `form`, `help`…
    public subscript<T>(dynamicMember path: KeyPath<OptionDeclaration<ExportOptions>, T>) -> T { declaration[keyPath: path] }

    /// Reads `text` into this option's place in `options`, checked; throws an `OptionProblem`.
    public func set(_ text: String, in options: inout ExportOptions) throws {
        try declaration.set(text, in: &options)
    }

    /// Declares an option whose value lives at `path` (see `OptionDeclaration.init`); `json`
    /// writes the value into the manifest (given with `manifest`).
    init<Value>(flag: String, key: String?, manifest: (ManifestGroup, String)?, at path: WritableKeyPath<ExportOptions, Value> & Sendable,
                form: Form = .value, valueName: String, summary: String, choices: [String] = [],
                parse: @escaping @Sendable (String) throws -> Value, check: @escaping @Sendable (Value) -> String? = { _ in nil },
                text: (@Sendable (Value) -> String)?, json: (@Sendable (Value) -> JSON)? = nil) {
        declaration = OptionDeclaration(flag: flag, key: key, at: path, form: form, valueName: valueName, summary: summary, choices: choices,
                                        parse: parse, check: check, text: text)
        self.manifest = manifest.map { (group: $0.0, key: $0.1) }
        if let json {
            manifestValue = { json($0[keyPath: path]) }
        } else {
            manifestValue = nil
        }
    }
}

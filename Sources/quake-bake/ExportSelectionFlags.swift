import ArgumentParser
import QuakeBundles

/// Which events of the store `export` puts in a bundle: a flag for each selection `ExportOption`.
/// (`bake` selects with the fetch's flags, `SelectionOptions`, and its configuration's `export:`.)
struct ExportSelectionFlags: ExportOptionFlags {
    @Option(name: .option(.since), help: .option(.since), completion: .option(.since)) var since: String?
    @Option(name: .option(.until), help: .option(.until), completion: .option(.until)) var until: String?
    @Option(name: .option(.minMagnitude), parsing: .unconditional, help: .option(.minMagnitude), completion: .option(.minMagnitude)) var minMagnitude: String?
    @Option(name: .option(.bbox), parsing: .unconditional, help: .option(.bbox), completion: .option(.bbox)) var bbox: String?
    @Option(name: .option(.eventTypes), help: .option(.eventTypes), completion: .option(.eventTypes)) var eventTypes: [String] = []

    /// Sets the options these flags give; throws a usage error naming the flag that is wrong.
    func apply(to options: inout ExportOptions) throws {
        try ExportOption.apply([
            (.since, since), (.until, until), (.minMagnitude, minMagnitude), (.bbox, bbox),
            (.eventTypes, eventTypes.isEmpty ? nil : eventTypes.joined(separator: ",")),
        ], to: &options)
    }
}

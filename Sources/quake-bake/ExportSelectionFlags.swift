import ArgumentParser
import QuakeBundles

/// Which events of the store `export` puts in a bundle: a flag for each selection `ExportOption`.
/// (`bake` selects with the fetch's flags, `SelectionFlags`, and its configuration's `export:`.)
struct ExportSelectionFlags: DeclaredFlags {
    @Option(.since) var since: String?
    @Option(.until) var until: String?
    @Option(.minMagnitude) var minMagnitude: String?
    @Option(.bbox) var bbox: String?
    @Option(.eventTypes) var eventTypes: [String] = []

    func apply(to options: inout ExportOptions) throws {
        try ExportOption.apply([
            (.since, since), (.until, until), (.minMagnitude, minMagnitude), (.bbox, bbox),
            (.eventTypes, eventTypes.isEmpty ? nil : eventTypes.joined(separator: ",")),
        ], to: &options)
    }
}

import ArgumentParser
import QuakeCommon
import QuakeFetch

/// Which events to fetch (FDSN filters), shared by `fetch` and `bake`: a flag for each
/// `SelectionOption`, named and explained by its declaration.
struct SelectionFlags: DeclaredFlags {
    @Option(SelectionOption.start) var start: String?
    @Option(SelectionOption.end) var end: String?
    @Option(SelectionOption.minMagnitude) var minMagnitude: String?
    @Option(SelectionOption.maxMagnitude) var maxMagnitude: String?
    @Option(SelectionOption.minDepth) var minDepth: String?
    @Option(SelectionOption.maxDepth) var maxDepth: String?
    @Option(SelectionOption.bbox) var bbox: String?
    @Option(SelectionOption.circle) var circle: String?
    @Option(SelectionOption.eventTypes) var eventTypes: [String] = []
    @Option(SelectionOption.catalog) var catalog: String?

    /// A flag's mistake, or a selection whose ranges contradict each other (`--end` before `--start`).
    func validate() throws {
        do {
            try selection().validate()
        } catch let error as QuakeBakeError {
            throw ValidationError(error.description)
        }
    }

    /// The selection these flags describe.
    func selection() throws -> FetchSelection {
        var selection = FetchSelection()
        try apply(to: &selection)
        return selection
    }

    func apply(to selection: inout FetchSelection) throws {
        try SelectionOption.apply([
            (.start, start), (.end, end), (.minMagnitude, minMagnitude), (.maxMagnitude, maxMagnitude), (.minDepth, minDepth),
            (.maxDepth, maxDepth), (.bbox, bbox), (.circle, circle), (.eventTypes, eventTypes.isEmpty ? nil : eventTypes.joined(separator: ",")),
            (.catalog, catalog),
        ], to: &selection)
    }
}

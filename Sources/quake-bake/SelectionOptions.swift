import ArgumentParser
import QuakeCatalog
import QuakeCommon
import QuakeFetch

/// Which events to fetch (FDSN filters), shared by `fetch` and `bake`.
struct SelectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Start of the origin-time range (ISO-8601, UTC unless zoned). Default: 30 days ago.", valueName: "time"))
    var start: String?

    @Option(help: ArgumentHelp("End of the origin-time range (ISO-8601). Default: now.", valueName: "time"))
    var end: String?

    @Option(help: ArgumentHelp("Smallest magnitude.", valueName: "mag"))
    var minMagnitude: Double?

    @Option(help: ArgumentHelp("Largest magnitude.", valueName: "mag"))
    var maxMagnitude: Double?

    @Option(help: ArgumentHelp("Shallowest depth, km (negative: above sea level).", valueName: "km"))
    var minDepth: Double?

    @Option(help: ArgumentHelp("Deepest depth, km.", valueName: "km"))
    var maxDepth: Double?

    @Option(help: ArgumentHelp(
        "A rectangle west,south,east,north in degrees; west > east crosses the antimeridian (170,-50,-170,-10).",
        valueName: "box"))
    var bbox: String?

    @Option(help: ArgumentHelp("A circle lat,lon,radiusKm (intersected with --bbox when both are given).", valueName: "circle"))
    var circle: String?

    @Option(name: .customLong("event-type"), help: ArgumentHelp("Only this event type (repeatable): earthquake, \"quarry blast\", …", valueName: "type"))
    var eventTypes: [String] = []

    @Option(help: ArgumentHelp("An FDSN catalog name (default: the preferred solutions).", valueName: "name"))
    var catalog: String?

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

    /// Sets the parts of `selection` these flags give (a configuration file fills the rest).
    func apply(to selection: inout FetchSelection) throws {
        if let start { selection.start = try Self.time(start, flag: "--start") }
        if let end { selection.end = try Self.time(end, flag: "--end") }
        if let minMagnitude { selection.minMagnitude = minMagnitude }
        if let maxMagnitude { selection.maxMagnitude = maxMagnitude }
        if let minDepth { selection.minDepth = minDepth }
        if let maxDepth { selection.maxDepth = maxDepth }
        if let bbox { selection.bbox = try BoundingBox(parsing: bbox) }
        if let circle { selection.circle = try FetchSelection.Circle(parsing: circle) }
        if !eventTypes.isEmpty { selection.eventTypes = eventTypes }
        if let catalog { selection.catalog = catalog }
    }

    static func time(_ text: String, flag: String) throws -> Int64 {
        guard let ms = ISOTime.parse(text) else {
            throw QuakeBakeError("\(flag) \"\(text)\" is not an ISO-8601 time (e.g. 2024-01-31 or 2024-01-31T12:00:00Z)", exitStatus: .usage)
        }
        return ms
    }
}

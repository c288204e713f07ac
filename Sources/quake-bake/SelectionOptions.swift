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
        "A rectangle minLon,minLat,maxLon,maxLat. minLon > maxLon crosses the antimeridian (170,-50,-170,-10).",
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
        selection.start = try start.map { try Self.time($0, flag: "--start") }
        selection.end = try end.map { try Self.time($0, flag: "--end") }
        selection.minMagnitude = minMagnitude
        selection.maxMagnitude = maxMagnitude
        selection.minDepth = minDepth
        selection.maxDepth = maxDepth
        selection.box = try bbox.map(FetchSelection.BoundingBox.init(parsing:))
        selection.circle = try circle.map(FetchSelection.Circle.init(parsing:))
        selection.eventTypes = eventTypes
        selection.catalog = catalog
        return selection
    }

    static func time(_ text: String, flag: String) throws -> Int64 {
        guard let ms = ISOTime.parse(text) else {
            throw QuakeBakeError("\(flag) \"\(text)\" is not an ISO-8601 time (e.g. 2024-01-31 or 2024-01-31T12:00:00Z)", exitStatus: .usage)
        }
        return ms
    }
}

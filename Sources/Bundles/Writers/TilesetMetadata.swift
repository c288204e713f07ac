import QuakeBundleFormat
import QuakeCatalog
import QuakeCommon
import QuakeTiles

/// What the MBTiles `metadata` table and the PMTiles metadata say about the
/// tiles: name, bounds, center, zooms, and the `vector_layers` (every field and
/// its type) and `tilestats` JSON.
struct TilesetMetadata {
    let name: String
    let minZoom: Int
    let maxZoom: Int
    /// west, south, east, north of the selected events.
    let bounds: (Double, Double, Double, Double)
    let vectorLayers: JSON
    let tilestats: JSON

    static let description = "USGS earthquakes, thinned per zoom by magnitude (quake-bake)"
    static let attribution = "USGS Earthquake Hazards Program"

    init(options: ExportOptions, table: EventTable, points: PointSet, thinning: Thinning, records: [TileRecord]) {
        name = options.name
        minZoom = options.thinning.minZoom
        maxZoom = options.thinning.maxZoom
        bounds = (table.longitude.min() ?? -180, table.latitude.min() ?? -85, table.longitude.max() ?? 180, table.latitude.max() ?? 85)
        table.spill?.releaseResident()
        let clusterZooms = records.filter { $0.clusters > 0 }.map(\.key.z)
        var layers: [JSON] = [.object([
            ("id", .string(TileEncoder.eventLayer)),
            ("description", .string("One point per earthquake shown at the zoom; minzoom is its first zoom")),
            ("minzoom", .int(minZoom)), ("maxzoom", .int(maxZoom)),
            ("fields", .object(table.attributes.map { ($0.rawValue, .string($0.fieldType)) })),
        ])]
        if let first = clusterZooms.min(), let last = clusterZooms.max() {
            layers.append(.object([
                ("id", .string(TileEncoder.clusterLayer)),
                ("description", .string("The events of one grid cell not shown at the zoom, at their mean position")),
                ("minzoom", .int(first)), ("maxzoom", .int(last)),
                ("fields", .object(TileEncoder.clusterFields.map { ($0.name, .string($0.type)) })),
            ]))
        }
        let heatZooms = records.map(\.key.z).filter { $0 <= HeatLayer.maxZoom }
        if let first = heatZooms.min(), let last = heatZooms.max() {
            layers.append(.object([
                ("id", .string(HeatLayer.name)),
                ("description", .string("Every event of the tile, shown or not, counted per 8-pixel cell (multipoints by count), for a heatmap weighted by point_count")),
                ("minzoom", .int(first)), ("maxzoom", .int(last)),
                ("fields", .object([(HeatLayer.countField, .string("Number"))])),
            ]))
        }
        vectorLayers = .array(layers)

        let shown = thinning.minZoom.reduce(0) { $0 + ($1 == Thinning.never ? 0 : 1) }
        var statLayers: [JSON] = [.object([
            ("layer", .string(TileEncoder.eventLayer)), ("count", .int(shown)), ("geometry", .string("Point")),
            ("attributeCount", .int(table.attributes.count)),
            ("attributes", .array(Self.attributeStats(table: table, points: points, thinning: thinning))),
        ])]
        if !clusterZooms.isEmpty {
            let clusterCount = records.reduce(0) { $0 + Int($1.clusters) }
            statLayers.append(.object([
                ("layer", .string(TileEncoder.clusterLayer)), ("count", .int(clusterCount)), ("geometry", .string("Point")),
                ("attributeCount", .int(TileEncoder.clusterFields.count)),
                ("attributes", .array(TileEncoder.clusterFields.map { .object([("attribute", .string($0.name)), ("type", .string("number"))]) })),
            ]))
        }
        tilestats = .object([("layerCount", .int(statLayers.count)), ("layers", .array(statLayers))])
    }

    /// `tilestats` for one attribute over the events the tiles show: distinct count,
    /// type, min and max for numbers, and up to 100 values (smallest numbers; for
    /// text, the first distinct values in priority order, biggest quakes first).
    /// One attribute at a time (the GeoJSON zooms are written meanwhile: at a million events
    /// both at once would take the export over its memory budget).
    private static func attributeStats(table: EventTable, points: PointSet, thinning: Thinning) -> [JSON] {
        table.attributes.indices.map {
            defer { table.spill?.releaseResident() }  // one column read whole at a time
            return attributeStats($0, byRank: points.byRank, table: table, thinning: thinning)
        }
    }

    private static func attributeStats(_ index: Int, byRank: [UInt32], table: EventTable, thinning: Thinning) -> JSON {
        let attribute = table.attributes[index]
        var members: [(String, JSON)] = [("attribute", .string(attribute.rawValue))]
        // Counts and sorted values need no order: the shown events in table order read the columns in sequence.
        let shown = { thinning.minZoom[$0] != Thinning.never }
        if attribute.fieldType == "Number" {
            var numbers = attribute == .minzoom
                ? thinning.minZoom.filter { $0 != Thinning.never }.map(Double.init) : table.numbers(index, of: shown)
            let distinct = EventTable.distinctValues(&numbers, limit: 100)
            members += [("count", .int(distinct.count)), ("type", .string("number")),
                        ("values", .array(distinct.smallest.map { .double($0) }))]
            if let low = distinct.smallest.first, let high = distinct.largest { members += [("min", .double(low)), ("max", .double(high))] }
        } else {
            let count = table.distinctTextCount(index, of: shown)
            let values = table.firstDistinctTexts(index, in: byRank, of: shown, limit: min(100, count))
            members += [("count", .int(count)), ("type", .string("string")), ("values", .array(values.map(JSON.string)))]
        }
        return .object(members)
    }

    /// The `json` metadata value: vector layers and tilestats.
    var layersJSON: JSON { .object([("vector_layers", vectorLayers), ("tilestats", tilestats)]) }

    /// The middle of the bounds, rounded to 1e-6°.
    var centerLongitude: Double { ((bounds.0 + bounds.2) / 2 * 1e6).rounded() / 1e6 }
    var centerLatitude: Double { ((bounds.1 + bounds.3) / 2 * 1e6).rounded() / 1e6 }

    /// Rows of the MBTiles `metadata` table.
    var mbtilesRows: [(String, String)] {
        let (w, s, e, n) = bounds
        return [
            (MBTiles.Metadata.name, name), (MBTiles.Metadata.format, MBTiles.Metadata.vectorTiles), (MBTiles.Metadata.type, "overlay"),
            (MBTiles.Metadata.version, "1"), (MBTiles.Metadata.description, Self.description), (MBTiles.Metadata.attribution, Self.attribution),
            (MBTiles.Metadata.bounds, [w, s, e, n].map(JSON.format).joined(separator: ",")),
            (MBTiles.Metadata.center, "\(JSON.format(centerLongitude)),\(JSON.format(centerLatitude)),\(minZoom)"),
            (MBTiles.Metadata.minZoom, String(minZoom)), (MBTiles.Metadata.maxZoom, String(maxZoom)),
            (MBTiles.Metadata.json, layersJSON.text),
        ]
    }

    /// The PMTiles metadata object.
    var pmtilesJSON: JSON {
        .object([
            ("name", .string(name)), ("format", .string("pbf")), ("type", .string("overlay")),
            ("description", .string(Self.description)), ("attribution", .string(Self.attribution)),
            ("vector_layers", vectorLayers), ("tilestats", tilestats),
        ])
    }

    /// A digest of what the metadata puts in both archives (the header's fields are among the
    /// rows): with the same tiles and the same digest, the archives come out byte for byte as
    /// before. `archiveFormat` changes when a writer changes the bytes it makes of them.
    var digest: UInt64 {
        let archiveFormat = 1
        var text = "\(archiveFormat)\u{0}"
        for (name, value) in mbtilesRows { text += name + "\u{0}" + value + "\u{0}" }
        return SipHasher.hash(Array((text + pmtilesJSON.text).utf8))
    }

    /// The PMTiles header fields taken from the metadata.
    var pmtilesHeader: PMTilesWriter.Header {
        PMTilesWriter.Header(minZoom: minZoom, maxZoom: maxZoom, bounds: bounds,
                             center: (centerLongitude, centerLatitude, minZoom))
    }
}

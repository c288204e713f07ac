/// Encodes a tile's content as a Mapbox Vector Tile 2.1 (uncompressed protobuf).
///
/// Layer `quakes`: one point per shown event, most important first, feature id from
/// `FeatureID`, the chosen attributes as tags (NULLs left out). Layer `clusters`:
/// one point per cluster with `point_count`, `max_mag`, `first_time`, `last_time`
/// and `expand_zoom`. At the low zooms, layer `heat` (see `HeatLayer`). Empty layers are
/// left out. Extent 4096 (the heat's 128), no buffer: every event is in exactly one tile per zoom.
///
/// A class: it holds the whole table and point set, and the tile workers share one
/// (as a struct every copy retained each of their arrays).
public final class TileEncoder: Sendable {
    /// The name of the events layer.
    public static let eventLayer = "quakes"
    /// The name of the clusters layer.
    public static let clusterLayer = "clusters"
    /// The cluster layer's fields and their `vector_layers` types, in tag order.
    public static let clusterFields: [(name: String, type: String)] = [
        ("point_count", "Number"), ("max_mag", "Number"), ("first_time", "Number"), ("last_time", "Number"), ("expand_zoom", "Number"),
    ]

    private let table: EventTable
    private let points: PointSet
    private let featureIDs: FeatureIDs
    private let minZoom: [UInt8]

    /// An encoder for the events of `table` thinned to `minZoom`.
    public init(table: EventTable, points: PointSet, featureIDs: FeatureIDs, minZoom: [UInt8]) {
        self.table = table
        self.points = points
        self.featureIDs = featureIDs
        self.minZoom = minZoom
    }

    /// The MVT bytes of `content`.
    public func encode(_ content: TileContent) -> [UInt8] {
        let zoom = content.key.z
        var tile = ProtobufWriter(capacity: content.featureCount * 96 + 64)
        if !content.events.isEmpty {
            let attributes = table.attributes
            var layer = PointLayerBuilder(name: Self.eventLayer, keys: attributes.map(\.rawValue), features: content.events.count)
            let minzoomIndex = attributes.firstIndex(of: .minzoom) ?? -1
            let idIndex = attributes.firstIndex(of: .id) ?? -1
            let isCategory = attributes.indices.map(table.isCategory)
            for (k, e) in content.events.enumerated() {
                if content.isSparse { table.releaseResident(picking: k) }
                let event = Int(e)
                layer.beginFeature()
                for index in attributes.indices {
                    if index == minzoomIndex {
                        layer.tag(index, .unsigned(UInt64(minZoom[event])))
                    } else if index == idIndex {
                        layer.tag(index, .uniqueText(table.ids[event]!))  // ids are unique in a selection
                    } else if isCategory[index] {
                        let code = table.categoryCode(index, event)
                        if code != 0 { layer.tag(index, code: code) { Self.layerValue(table.value(index, event)!) } }
                    } else if let value = table.value(index, event) {
                        layer.tag(index, Self.layerValue(value))
                    }
                }
                layer.endFeature(id: featureIDs[event],
                                 x: WebMercator.tileUnits(points.worldX[event], zoom: zoom),
                                 y: WebMercator.tileUnits(points.worldY[event], zoom: zoom))
            }
            tile.bytesField(3, layer.encoded(extent: WebMercator.extent))
        }
        if !content.clusters.isEmpty {
            var layer = PointLayerBuilder(name: Self.clusterLayer, keys: Self.clusterFields.map(\.name), features: content.clusters.count)
            for cluster in content.clusters {
                layer.beginFeature()
                layer.tag(0, .unsigned(UInt64(cluster.count)))
                if !cluster.maxMagnitude.isNaN { layer.tag(1, .double(cluster.maxMagnitude)) }
                layer.tag(2, Self.integerValue(cluster.firstTime))
                layer.tag(3, Self.integerValue(cluster.lastTime))
                if cluster.expandZoom != Thinning.never { layer.tag(4, .unsigned(UInt64(cluster.expandZoom))) }
                layer.endFeature(id: cluster.featureID,
                                 x: WebMercator.tileUnits(cluster.worldX, zoom: zoom),
                                 y: WebMercator.tileUnits(cluster.worldY, zoom: zoom))
            }
            tile.bytesField(3, layer.encoded(extent: WebMercator.extent))
        }
        if !content.heat.isEmpty { tile.bytesField(3, HeatLayer.encoded(content.heat)) }
        return tile.bytes
    }

    private static func layerValue(_ value: EventTable.Value) -> PointLayerBuilder.Value {
        switch value {
        case .text(let bytes): return .text(bytes)
        case .real(let v): return .double(v)
        case .integer(let v): return integerValue(v)
        }
    }

    private static func integerValue(_ v: Int64) -> PointLayerBuilder.Value {
        v >= 0 ? .unsigned(UInt64(v)) : .signed(v)
    }
}

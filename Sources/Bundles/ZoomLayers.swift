import Foundation
import QuakeCommon
import QuakeTiles

/// The whole-world points of one zoom, for the GeoJSON files and the preview.
struct ZoomLayer {
    let zoom: Int
    /// Shown events, most important first.
    let events: [Int]
    /// Clusters in Morton order.
    let clusters: [ClusterFeature]

    /// The layers of `zooms`.
    static func build(zooms: [Int], points: PointSet, thinning: Thinning, options: ThinningOptions) -> [ZoomLayer] {
        zooms.map { zoom in
            let z = UInt8(zoom)
            let events = points.byRank.lazy.map(Int.init).filter { thinning.minZoom[$0] <= z }
            let clusters = options.clusters
                ? TileRun.all(points: points, zoom: zoom).flatMap {
                    TileContent(run: $0, points: points, minZoom: thinning.minZoom, options: options)?.clusters ?? []
                }
                : []
            return ZoomLayer(zoom: zoom, events: Array(events), clusters: clusters)
        }
    }
}

/// Writes `geojson/z{z}.geojson.gz`: one FeatureCollection per small zoom, events
/// (exact positions, the chosen attributes, `id` the USGS id) then clusters
/// (`cluster: true`, mean position rounded to 1e-6°, the cluster fields).
enum GeoJSONZoomWriter {
    static func write(_ layer: ZoomLayer, table: EventTable, thinning: Thinning, to url: URL) throws {
        var out = Data("{\"type\":\"FeatureCollection\",\"features\":[".utf8)
        var first = true
        for e in layer.events {
            var text = first ? "{\"type\":\"Feature\",\"id\":" : ",{\"type\":\"Feature\",\"id\":"
            first = false
            JSON.quote(table.id(e), into: &text)
            text += ",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(JSON.format(table.longitude[e])),\(JSON.format(table.latitude[e]))]}"
            text += ",\"properties\":{"
            var separator = ""
            for (index, attribute) in table.attributes.enumerated() {
                let value: JSON
                if attribute == .minzoom {
                    value = .int(Int(thinning.minZoom[e]))
                } else if let stored = table.value(index, e) {
                    value = json(stored)
                } else {
                    continue
                }
                text += separator + "\"" + attribute.rawValue + "\":"
                value.write(to: &text, indent: nil, level: 0)
                separator = ","
            }
            text += "}}"
            out.append(contentsOf: text.utf8)
        }
        for cluster in layer.clusters {
            let properties = JSON.object([
                ("cluster", .bool(true)), ("point_count", .int(cluster.count)), ("max_mag", .number(cluster.maxMagnitude)),
                ("first_time", .int(cluster.firstTime)), ("last_time", .int(cluster.lastTime)),
                ("expand_zoom", cluster.expandZoom == Thinning.never ? .null : .int(Int(cluster.expandZoom))),
            ])
            let (longitude, latitude) = position(cluster)
            var text = first ? "" : ","
            first = false
            text += "{\"type\":\"Feature\",\"id\":\"cluster/\(layer.zoom)/\(cluster.cellX)/\(cluster.cellY)\""
            text += ",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(JSON.format(longitude)),\(JSON.format(latitude))]}"
            text += ",\"properties\":" + properties.text + "}"
            out.append(contentsOf: text.utf8)
        }
        out.append(contentsOf: "]}".utf8)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Gzip.compress(out).write(to: url)
    }

    /// A cluster's mean position in degrees, rounded to 1e-6.
    static func position(_ cluster: ClusterFeature) -> (Double, Double) {
        ((WebMercator.longitude(worldX: cluster.worldX) * 1e6).rounded() / 1e6,
         (WebMercator.latitude(worldY: cluster.worldY) * 1e6).rounded() / 1e6)
    }

    static func json(_ value: EventTable.Value) -> JSON {
        switch value {
        case .text(let bytes): return .string(String(decoding: bytes, as: UTF8.self))
        case .real(let v): return .double(v)
        case .integer(let v): return .int(v)
        }
    }
}

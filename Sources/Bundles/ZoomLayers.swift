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

    /// This layer with `others` (events it does not list) drawn too, after its own.
    func adding(_ others: [Int]) -> ZoomLayer {
        ZoomLayer(zoom: zoom, events: events + others, clusters: clusters)
    }

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
        // The whole text, then compressed at once (libdeflate, three times faster than zlib):
        // a zoom of 50,000 features is some 15 MB of text, held after the tiles are done.
        let compressed = try text(layer, table: table, thinning: thinning).withUnsafeBytes { try Gzip.compress(bytes: $0) }
        try Data(compressed).write(to: url)
    }

    /// The FeatureCollection of `layer` as UTF-8 bytes.
    static func text(_ layer: ZoomLayer, table: EventTable, thinning: Thinning) -> [UInt8] {
        var out = JSONBytes(capacity: (layer.events.count + layer.clusters.count) * 320 + 64)
        out.raw("{\"type\":\"FeatureCollection\",\"features\":[")
        let keys = table.attributes.map { "\"\($0.rawValue)\":" }
        var first = true
        for (k, e) in layer.events.enumerated() {
            table.releaseResident(picking: k)
            out.raw(first ? "{\"type\":\"Feature\",\"id\":" : ",{\"type\":\"Feature\",\"id\":")
            first = false
            out.string(table.ids[e]!)
            out.raw(",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            out.number(table.longitude[e])
            out.raw(",")
            out.number(table.latitude[e])
            out.raw("]},\"properties\":{")
            var separator = false
            for (index, attribute) in table.attributes.enumerated() {
                let value = attribute == .minzoom ? .integer(Int64(thinning.minZoom[e])) : table.value(index, e)
                guard let value else { continue }
                if separator { out.raw(",") }
                separator = true
                out.raw(keys[index])
                switch value {
                case .text(let bytes): out.string(bytes)
                case .real(let v): out.number(v)
                case .integer(let v): out.integer(v)
                }
            }
            out.raw("}}")
        }
        for cluster in layer.clusters {
            out.raw(first ? "{\"type\":\"Feature\",\"id\":\"cluster/" : ",{\"type\":\"Feature\",\"id\":\"cluster/")
            first = false
            out.integer(layer.zoom)
            out.raw("/")
            out.integer(Int64(cluster.cellX))
            out.raw("/")
            out.integer(Int64(cluster.cellY))
            let (longitude, latitude) = position(cluster)
            out.raw("\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            out.number(longitude)
            out.raw(",")
            out.number(latitude)
            out.raw("]},\"properties\":{\"cluster\":true,\"point_count\":")
            out.integer(cluster.count)
            out.raw(",\"max_mag\":")
            out.number(cluster.maxMagnitude)
            out.raw(",\"first_time\":")
            out.integer(cluster.firstTime)
            out.raw(",\"last_time\":")
            out.integer(cluster.lastTime)
            out.raw(",\"expand_zoom\":")
            if cluster.expandZoom == Thinning.never { out.raw("null") } else { out.integer(Int(cluster.expandZoom)) }
            out.raw("}}")
        }
        out.raw("]}")
        return out.bytes
    }

    /// A digest of what `text` writes for `layer`: the events in order (each event's fingerprint
    /// covers everything the file says of it) with their minzoom, and the clusters. Equal digests
    /// (with equal options: see `ExportState`), equal files: an incremental export copies the
    /// previous version's file instead of writing it again. Bump `format` when `text` changes.
    static func digest(_ layer: ZoomLayer, table: EventTable, thinning: Thinning) -> UInt64 {
        let format: UInt64 = 1
        var hasher = SipHasher()
        hasher.combine(format)
        hasher.combine(UInt64(layer.zoom))
        hasher.combine(UInt64(layer.events.count))
        for (k, e) in layer.events.enumerated() {
            table.releaseResident(picking: k)
            hasher.combine(table.fingerprint[e])
            hasher.combine(UInt64(thinning.minZoom[e]))
        }
        hasher.combine(UInt64(layer.clusters.count))
        for c in layer.clusters {
            hasher.combine(UInt64(c.cellX) << 32 | UInt64(c.cellY))
            hasher.combine(UInt64(c.worldX) << 32 | UInt64(c.worldY))
            hasher.combine(UInt64(c.count))
            hasher.combine(c.maxMagnitude.bitPattern)
            hasher.combine(UInt64(bitPattern: c.firstTime))
            hasher.combine(UInt64(bitPattern: c.lastTime))
            hasher.combine(UInt64(c.expandZoom))
        }
        return hasher.finalize()
    }

    /// A cluster's mean position in degrees, rounded to 1e-6.
    static func position(_ cluster: ClusterFeature) -> (Double, Double) {
        ((WebMercator.longitude(worldX: cluster.worldX) * 1e6).rounded() / 1e6,
         (WebMercator.latitude(worldY: cluster.worldY) * 1e6).rounded() / 1e6)
    }
}

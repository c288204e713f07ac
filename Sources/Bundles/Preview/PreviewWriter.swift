import Foundation
import QuakeTiles

/// Writes `preview.html`: a map a person can move around, from disk, with no network
/// (`PreviewPage` is the page; this writes the data it carries).
///
/// It carries the zooms that have a GeoJSON file, lowest first, as long as together they
/// hold at most `maximumEvents` distinct events (each event once, with its details; a zoom
/// lists the events it shows by position), their clusters, a histogram of the whole
/// selection's origin times, the map's other layers as `style.json` draws them (`MapLayers`,
/// with the basemap's GeoJSON and the heat's counts: see `writeMap`), and the details
/// (`details/<id>.json`) of the biggest quakes carried that have them (`maximumDetails`, within
/// `maximumDetailBytes`), which the panel shows (`DetailPanel`).
enum PreviewWriter {
    /// The most events the page carries: about 160 bytes each with their places in the zooms'
    /// lists, so the page stays under 3 MB (1.2 MB for the 440,633-event catalog: zooms 0–4).
    static let maximumEvents = 15_000
    /// The most of them that are quakes of the recent layer (its biggest), drawn at every zoom.
    static let maximumRecentEvents = maximumEvents / 2
    /// Bars of the time histogram.
    static let histogramBins = 400
    /// The most quakes whose details the page carries, biggest first, and their most bytes in all.
    static let maximumDetails = 200
    static let maximumDetailBytes = 3 << 20

    /// `recentSince`: the first origin time (ms) of the recent layer, whose quakes are ringed, if
    /// any; `points`, the tiles' events, whose heat the page draws.
    static func html(name: String, layers: [ZoomLayer], table: EventTable, points: PointSet, basemap: Basemap,
                     recentSince: Int64? = nil, details: BundleDetails = BundleDetails(rows: [])) -> String {
        var carried: [ZoomLayer] = []
        var position = [Int32](repeating: -1, count: table.count)
        var events: [Int] = []
        for layer in layers {
            let new = layer.events.filter { position[$0] < 0 }
            guard events.count + new.count <= maximumEvents else { break }
            for event in new {
                position[event] = Int32(events.count)
                events.append(event)
            }
            carried.append(layer)
        }
        let fields = table.attributes.enumerated().filter { ![.id, .mag, .time, .minzoom].contains($0.element) }
        let idIndex = table.attributes.firstIndex(of: .id)

        // Written as bytes directly: a JSON value tree of many points would cost tens of MB for a moment.
        var data = JSONBytes(capacity: events.count * 100 + carried.reduce(0) { $0 + $1.events.count * 6 + $1.clusters.count * 60 } + 140_000)
        func rounded(_ v: Double, _ scale: Double) {
            if v.isNaN { data.raw("null") } else { data.number((v * scale).rounded() / scale) }
        }
        func value(_ v: EventTable.Value?) {
            switch v {
            case .text(let bytes)?: data.string(bytes)
            case .real(let r)?: rounded(r, 1000)
            case .integer(let i)?: data.integer(i)
            case nil: data.raw("null")
            }
        }
        data.raw("{\"name\":")
        data.string(name)
        data.raw(",\"events\":")
        data.integer(Int64(table.count))
        data.raw(",\"recentSince\":")
        if let recentSince { data.integer(recentSince / 1000) } else { data.raw("null") }
        writeLegend(&data)
        data.raw(",\"fields\":[")
        for (k, field) in fields.enumerated() {
            if k > 0 { data.raw(",") }
            data.string(field.element.rawValue)
        }
        data.raw("],\"ev\":[")
        for (k, e) in events.enumerated() {
            table.releaseResident(picking: k)
            data.raw(k == 0 ? "[" : ",[")
            rounded(table.longitude[e], 1000)
            data.raw(",")
            rounded(table.latitude[e], 1000)
            data.raw(",")
            rounded(table.magnitude[e], 10)
            data.raw(",")
            data.integer(table.time[e] / 1000)
            data.raw(",")
            value(idIndex.flatMap { table.value($0, e) })
            for field in fields {
                data.raw(",")
                value(table.value(field.offset, e))
            }
            data.raw("]")
        }
        data.raw("],\"zooms\":[")
        for (i, layer) in carried.enumerated() {
            data.raw(i == 0 ? "{\"zoom\":" : ",{\"zoom\":")
            data.integer(Int64(layer.zoom))
            data.raw(",\"events\":[")
            for (k, e) in layer.events.enumerated() {
                if k > 0 { data.raw(",") }
                data.integer(Int64(position[e]))
            }
            data.raw("],\"clusters\":[")
            for (k, c) in layer.clusters.enumerated() {
                let (longitude, latitude) = GeoJSONZoomWriter.position(c)
                data.raw(k == 0 ? "[" : ",[")
                rounded(longitude, 1000)
                data.raw(",")
                rounded(latitude, 1000)
                data.raw(",")
                data.integer(Int64(c.count))
                data.raw(",")
                rounded(c.maxMagnitude, 10)
                data.raw(",")
                data.integer(c.firstTime / 1000)
                data.raw(",")
                data.integer(c.lastTime / 1000)
                data.raw("]")
            }
            data.raw("]}")
        }
        data.raw("]")
        writeDetails(&data, details, of: events, table: table)
        writeHistogram(&data, table: table)
        writeMap(&data, points: points, basemap: basemap)
        data.raw("}")
        let text = String(decoding: scriptSafe(data.bytes), as: UTF8.self)
        let parts = PreviewPage.template.components(separatedBy: "__DATA__")
        return parts.map { $0.replacingOccurrences(of: "__TITLE__", with: name.htmlEscaped) }.joined(separator: text)
    }

    /// `json` with every `</` written `<\/`, which JSON reads as the same text: inside the page's
    /// `<script>` element, `</` would end it early. (A pass over the bytes: Foundation's
    /// `replacingOccurrences` over the megabytes of a preview took 3% of an incremental export.)
    private static func scriptSafe(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 64)
        json.withUnsafeBufferPointer { json in
            var clean = 0
            for i in json.indices.dropLast() where json[i] == 0x3C && json[i + 1] == 0x2F {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: json[clean...i]))
                out.append(0x5C)
                clean = i + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: json[clean...]))
        }
        return out
    }

    /// `"details"`: id → summary of the carried `events` with details, the biggest first (ties by
    /// id) as long as they fit `maximumDetails` and `maximumDetailBytes`, written in id order.
    private static func writeDetails(_ data: inout JSONBytes, _ details: BundleDetails, of events: [Int], table: EventTable) {
        data.raw(",\"details\":{")
        defer { data.raw("}") }
        guard !details.rows.isEmpty else { return }
        let summaries = Dictionary(details.rows.map { ($0.id, $0.json) }, uniquingKeysWith: { a, _ in a })
        var carried: [(id: String, magnitude: Double)] = []
        for e in events {
            let id = table.id(e)
            if summaries[id] != nil { carried.append((id, table.magnitude[e].isNaN ? -.infinity : table.magnitude[e])) }
        }
        carried.sort { $0.magnitude != $1.magnitude ? $0.magnitude > $1.magnitude : $0.id < $1.id }
        var chosen: [String] = [], bytes = 0
        for quake in carried where chosen.count < maximumDetails {
            let size = summaries[quake.id]!.utf8.count
            guard bytes + size <= maximumDetailBytes else { continue }
            bytes += size
            chosen.append(quake.id)
        }
        for (k, id) in chosen.sorted().enumerated() {
            if k > 0 { data.raw(",") }
            data.string(id)
            data.raw(":")
            data.raw(summaries[id]!)
        }
    }

    /// `"legend"`: the magnitude classes and colours of `MagnitudeLegend`, as in `style.json`.
    private static func writeLegend(_ data: inout JSONBytes) {
        data.raw(",\"legend\":{\"bands\":[")
        for (i, band) in MagnitudeLegend.bands.enumerated() {
            data.raw(i == 0 ? "{\"from\":" : ",{\"from\":")
            data.number(band.from)
            data.raw(",\"colour\":")
            data.string(band.colour)
            data.raw(",\"label\":")
            data.string(band.label)
            data.raw("}")
        }
        data.raw("],\"unknown\":")
        data.string(MagnitudeLegend.unknownColour)
        data.raw(",\"cluster\":")
        data.string(MagnitudeLegend.clusterColour)
        data.raw(",\"background\":")
        data.string(MagnitudeLegend.background)
        data.raw("}")
    }

    /// `"histogram"`: origin times of every selected event (not only those carried) in
    /// `histogramBins` equal bins from the axis start (`timeAxisStart`) to the last; earlier
    /// events are in the first bin.
    private static func writeHistogram(_ data: inout JSONBytes, table: EventTable) {
        let first = timeAxisStart(table.time) / 1000, last = (table.time.max() ?? 0) / 1000
        let step = max(1, (last - first) / Int64(histogramBins) + 1)
        var counts = [Int](repeating: 0, count: histogramBins)
        for (k, t) in table.time.enumerated() {
            table.releaseResident(scanning: k)
            counts[min(histogramBins - 1, max(0, Int((t / 1000 - first) / step)))] += 1
        }
        data.raw(",\"first\":")
        data.integer(first)
        data.raw(",\"last\":")
        data.integer(last)
        data.raw(",\"histogram\":{\"step\":")
        data.integer(step)
        data.raw(",\"counts\":[")
        for (k, c) in counts.enumerated() {
            if k > 0 { data.raw(",") }
            data.integer(Int64(c))
        }
        data.raw("]}")
    }
}

extension PreviewWriter {
    /// Where the time slider and its histogram start (ms): past the earliest thousandth of the
    /// events (at least one, when there are two or more). A catalog's stray early event (one of
    /// 1570 in a week of 2018) would otherwise stretch the axis over centuries and leave the
    /// rest one bar at the end; the events before the start are in the first bar and shown
    /// from the slider's left end.
    static func timeAxisStart(_ times: some RandomAccessCollection<Int64>) -> Int64 {
        guard times.count > 1 else { return times.first ?? 0 }
        let size = max(1, times.count / 1000) + 1
        // The `size` smallest times in a max-heap (its top, the largest of them, is the answer):
        // a pass in any order, without a sorted copy of every time.
        var heap: [Int64] = []
        heap.reserveCapacity(size)
        for t in times {
            if heap.count < size {
                heap.append(t)
                var i = heap.count - 1
                while i > 0 && heap[(i - 1) / 2] < heap[i] {
                    heap.swapAt(i, (i - 1) / 2)
                    i = (i - 1) / 2
                }
            } else if t < heap[0] {
                heap[0] = t
                var i = 0
                while true {
                    let left = 2 * i + 1, right = left + 1
                    var largest = i
                    if left < size && heap[left] > heap[largest] { largest = left }
                    if right < size && heap[right] > heap[largest] { largest = right }
                    if largest == i { break }
                    heap.swapAt(i, largest)
                    i = largest
                }
            }
        }
        return heap[0]
    }
}

extension String {
    /// The text with `&`, `<`, `>` and `"` escaped for HTML.
    public var htmlEscaped: String {
        replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

import QuakeCommon

/// The `heat` layer of the low zooms' tiles: every event of the tile, drawn or not, counted
/// per 8-pixel cell (at 512-pixel tiles), for a MapLibre `heatmap` whose weight is the count.
///
/// Why a layer of its own: a MapLibre style layer reads one source-layer, so a heatmap cannot
/// add the drawn quakes (`quakes`) to the summaries of the hidden ones (`clusters`); and the
/// summaries sit at the centroid of a 128-pixel cell (`--cell-size` 64 of 256), which would
/// pile the 437,000 quakes zoom 0 hides into 16 blobs. Counted per 8-pixel cell, the heat is
/// the true number of quakes at every place to within 4 px (docs/thinning.md, "Heat").
///
/// Encoding (MVT 2.1): extent 128, each cell's centre at (2·column + 1, 2·row + 1); one
/// multipoint feature (type POINT, one MoveTo of many points) per distinct count, holding
/// every cell of that count in Morton order, with the count as `point_count` (so a heatmap's
/// `["get", "point_count"]` weighs each point): some 3 bytes a cell after gzip, instead of a
/// dozen as one feature each (the real catalog's 34,000 cells of zooms 0–4: 100 KB an archive).
public enum HeatLayer {
    /// The layer's name in the tiles.
    public static let name = "heat"
    /// The count's field.
    public static let countField = "point_count"
    /// The deepest zoom whose tiles carry the layer: the style's heatmap has faded out by the next.
    public static let maxZoom = 4
    /// log2 of the cells across a tile: 64, of 8 pixels each.
    public static let cellBits = 6
    /// The layer's extent: two units a cell, so that a cell's centre is a whole unit.
    public static let extent = 2 << cellBits

    /// The cells of the tile holding the events at `range` of `points.order` (one tile's run, at
    /// `zoom`): each with its column and row in the tile and how many events it holds, in Morton order.
    static func cells(points: PointSet, zoom: Int, range: Range<Int>) -> [HeatCell] {
        guard zoom <= maxZoom else { return [] }
        let mask = UInt32(1 << cellBits - 1)
        var cells: [HeatCell] = []
        eachCell(points: points, level: zoom + cellBits, range: range) { column, row, count in
            cells.append(HeatCell(column: UInt8(column & mask), row: UInt8(row & mask), count: count))
        }
        return cells
    }

    /// Every event of `points` counted per cell of a 2^`level` × 2^`level` world grid: column, row
    /// and count of each cell that has one, in Morton order (for a heat drawn without the tiles).
    public static func worldCells(points: PointSet, level: Int) -> [(column: UInt32, row: UInt32, count: UInt32)] {
        var cells: [(column: UInt32, row: UInt32, count: UInt32)] = []
        eachCell(points: points, level: level, range: 0..<points.order.count) { cells.append(($0, $1, $2)) }
        return cells
    }

    /// Calls `body` with the column, row (in the world grid of `level`) and count of each cell
    /// holding events of `points.order[range]`: consecutive runs, as the Morton order makes them.
    private static func eachCell(points: PointSet, level: Int, range: Range<Int>, _ body: (UInt32, UInt32, UInt32) -> Void) {
        let shift = UInt32(32 - level)
        var start = range.lowerBound
        while start < range.upperBound {
            let cell = Morton.prefix(points.morton[start], level: level)
            var end = start + 1
            while end < range.upperBound && Morton.prefix(points.morton[end], level: level) == cell {
                points.releaseResident(scanning: end)
                end += 1
            }
            let e = Int(points.order[start])
            body(points.worldX[e] >> shift, points.worldY[e] >> shift, UInt32(end - start))
            start = end
        }
    }

    /// The encoded layer message of `cells` (not empty).
    static func encoded(_ cells: [HeatCell]) -> [UInt8] {
        // By count, Morton order within a count (the sort is stable).
        var byCount = cells
        byCount.sort { $0.count < $1.count }
        var features = ProtobufWriter(capacity: byCount.count * 3 + 64)
        var values = ProtobufWriter(capacity: 64)
        var first = 0, value: UInt64 = 0
        while first < byCount.count {
            var last = first + 1
            while last < byCount.count && byCount[last].count == byCount[first].count { last += 1 }
            // MoveTo with (last - first) points, each a zigzag delta from the one before, the
            // first from (0, 0) (MVT 2.1, 4.3: each feature's cursor starts there).
            var cursor: (x: Int32, y: Int32) = (0, 0)
            var geometry = ProtobufWriter(capacity: (last - first) * 3 + 8)
            geometry.varint(UInt64(1 | (last - first) << 3))
            for cell in byCount[first..<last] {
                let x = 2 * Int32(cell.column) + 1, y = 2 * Int32(cell.row) + 1
                geometry.varint(UInt64(ProtobufWriter.zigzag32(x - cursor.x)))
                geometry.varint(UInt64(ProtobufWriter.zigzag32(y - cursor.y)))
                cursor = (x, y)
            }
            var feature = ProtobufWriter(capacity: geometry.bytes.count + 16)
            feature.key(2, .lengthDelimited)  // tags: key 0 (point_count), value `value`
            feature.varint(UInt64(1 + ProtobufWriter.varintSize(value)))
            feature.varint(0)
            feature.varint(value)
            feature.varintField(3, 1)  // POINT (a MoveTo of several points: a multipoint)
            feature.bytesField(4, geometry.bytes)
            features.bytesField(2, feature.bytes)
            let count = UInt64(byCount[first].count)
            values.key(4, .lengthDelimited)
            values.varint(UInt64(1 + ProtobufWriter.varintSize(count)))
            values.varintField(5, count)
            value += 1
            first = last
        }
        var layer = ProtobufWriter(capacity: features.bytes.count + values.bytes.count + 64)
        layer.bytesField(1, Array(name.utf8))
        layer.append(features.bytes)
        layer.bytesField(3, Array(countField.utf8))
        layer.append(values.bytes)
        layer.varintField(5, UInt64(extent))
        layer.varintField(15, 2)
        return layer.bytes
    }
}

/// One cell of a tile's heat layer.
public struct HeatCell: Hashable, Sendable {
    /// Column and row in the tile's 64 × 64 grid.
    public let column: UInt8
    public let row: UInt8
    /// How many events of the tile it holds.
    public let count: UInt32
}

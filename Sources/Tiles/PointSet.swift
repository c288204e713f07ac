/// The events as thinning sees them: fixed-point Web Mercator positions, the
/// priority order (biggest magnitude first, then newer, then smaller id) and the
/// Morton order that makes every tile and grid cell a contiguous run.
public struct PointSet: Sendable {
    /// Number of events.
    public let count: Int
    /// Fixed-point world x per event (see `WebMercator`).
    public let worldX: [UInt32]
    /// Fixed-point world y per event.
    public let worldY: [UInt32]
    /// Magnitude per event, NaN when unknown.
    public let magnitude: [Double]
    /// Origin time per event, ms since 1970 UTC.
    public let time: [Int64]
    /// Priority rank per event: 0 is the most important. Magnitude descending
    /// (unknown last), then time descending (newer first), then id ascending.
    public let rank: [UInt32]
    /// Event numbers in priority order.
    public let byRank: [UInt32]
    /// Event numbers in Morton order of their position, ties by rank.
    public let order: [UInt32]
    /// The Morton code of `order[i]`.
    public let morton: [UInt64]
    /// Event numbers by time ascending, ties by id (built only when asked for: `--stride`).
    public let timeOrder: [UInt32]

    /// Builds the point set of `table`.
    public init(table: EventTable, buildTimeOrder: Bool) {
        count = table.count
        let worldX = table.longitude.map(WebMercator.worldX(longitude:))
        let worldY = table.latitude.map(WebMercator.worldY(latitude:))
        self.worldX = worldX
        self.worldY = worldY
        magnitude = table.magnitude
        time = table.time

        struct PriorityKey { var magnitude: UInt64; var time: UInt64; var event: UInt32 }
        var keys = (0..<count).map { i in
            PriorityKey(magnitude: Self.descendingKey(table.magnitude[i]),
                        time: ~(UInt64(bitPattern: table.time[i]) ^ (1 << 63)),
                        event: UInt32(i))
        }
        keys.sort { a, b in
            if a.magnitude != b.magnitude { return a.magnitude < b.magnitude }
            if a.time != b.time { return a.time < b.time }
            return table.idPrecedes(Int(a.event), Int(b.event))
        }
        byRank = keys.map(\.event)
        var rank = [UInt32](repeating: 0, count: count)
        for (r, event) in byRank.enumerated() { rank[Int(event)] = UInt32(r) }
        self.rank = rank
        keys = []

        struct SpatialKey { var code: UInt64; var rank: UInt32; var event: UInt32 }
        var spatial = (0..<count).map { i in
            SpatialKey(code: Morton.code(x: worldX[i], y: worldY[i]), rank: rank[i], event: UInt32(i))
        }
        spatial.sort { a, b in a.code != b.code ? a.code < b.code : a.rank < b.rank }
        order = spatial.map(\.event)
        morton = spatial.map(\.code)
        spatial = []

        if buildTimeOrder {
            let times = table.time
            timeOrder = (0..<UInt32(count)).sorted { a, b in
                let ta = times[Int(a)], tb = times[Int(b)]
                return ta != tb ? ta < tb : table.idPrecedes(Int(a), Int(b))
            }
        } else {
            timeOrder = []
        }
    }

    /// A key that sorts magnitudes descending, unknown (NaN) last.
    private static func descendingKey(_ m: Double) -> UInt64 {
        if m.isNaN { return .max }
        let bits = (m == 0 ? 0.0 : m).bitPattern
        let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return ~ascending &- 1
    }
}

import QuakeCommon

/// The events as thinning sees them: fixed-point Web Mercator positions, the
/// priority order (biggest magnitude first, then newer, then smaller id) and the
/// Morton order that makes every tile and grid cell a contiguous run.
///
/// A point set may hold only some of a table's events (`including`): the per-event arrays
/// still have a place for every event of the table, but the orders (`byRank`, `bySize`,
/// `order`, `timeOrder`) list only the events held, so only they are thinned and tiled.
public struct PointSet: Sendable {
    /// Number of events of the table (held or not).
    public let count: Int
    /// Fixed-point world x per event (see `WebMercator`).
    public let worldX: [UInt32]
    /// Fixed-point world y per event.
    public let worldY: [UInt32]
    /// Magnitude per event, NaN when unknown.
    public let magnitude: SpillableArray<Double>
    /// Origin time per event, ms since 1970 UTC.
    public let time: SpillableArray<Int64>
    /// Priority rank per event: 0 is the most important. Magnitude descending
    /// (unknown last), then time descending (newer first), then id ascending
    /// (`UInt32.max` for an event not held).
    public let rank: [UInt32]
    /// Event numbers in priority order.
    public let byRank: [UInt32]
    /// Event numbers biggest first as the spacing thinning sweeps them: magnitude descending
    /// (unknown last), ties by id ascending.
    public let bySize: [UInt32]
    /// The events of the table the point set does not hold (the recent layer's, drawn apart at
    /// every zoom), in the order of `bySize`; empty when it holds them all. The biggest-first rule
    /// is judged over the whole selection: an event apart that is bigger keeps its neighbours out
    /// of that sweep as it does on the map (see `SpacingSweep`).
    public let apartBySize: [UInt32]
    /// For each event of `apartBySize`, how many held events come before it in that order
    /// (where it falls in `bySize`).
    public let apartAfter: [Int]
    /// Event numbers in Morton order of their position, ties by rank.
    public let order: [UInt32]
    /// The Morton code of `order[i]`.
    public let morton: [UInt64]
    /// Event numbers by time ascending, ties by id (built only when asked for: `--stride`).
    public let timeOrder: [UInt32]

    /// Builds the point set of `table`, or of the events of it that `including` holds true for.
    public init(table: EventTable, buildTimeOrder: Bool, including: [Bool]? = nil) {
        count = table.count
        let worldX = table.longitude.map(WebMercator.worldX(longitude:))
        let worldY = table.latitude.map(WebMercator.worldY(latitude:))
        // Each step reads a column or two of the table whole: a table in a spill file lets go
        // of them after it (see `SpillFile`).
        let spill = table.spill
        spill?.releaseResident()
        self.worldX = worldX
        self.worldY = worldY
        magnitude = table.magnitude
        time = table.time

        // Radix sorts, each stable: by time descending, then by magnitude descending; equal
        // magnitude and time are put in id order after.
        let timeKeys = table.time.map { ~(UInt64(bitPattern: $0) ^ (1 << 63)) }
        let magnitudeKeys = table.magnitude.map(Self.descendingKey)
        spill?.releaseResident()
        func held(_ order: [UInt32]) -> [UInt32] {
            guard let including else { return order }
            return order.filter { including[Int($0)] }
        }
        var byRank = RadixSort.order(by: magnitudeKeys, start: held(RadixSort.order(by: timeKeys)))
        RadixSort.sortRuns(&byRank, where: { magnitudeKeys[$0] == magnitudeKeys[$1] && timeKeys[$0] == timeKeys[$1] },
                           by: { table.idPrecedes($0, $1) })
        let idKeys = (0..<count).map(table.idPrefixKey)
        spill?.releaseResident()
        let byID = RadixSort.order(by: idKeys)
        func bySize(_ start: [UInt32]) -> [UInt32] {
            var order = RadixSort.order(by: magnitudeKeys, start: start)
            RadixSort.sortRuns(&order, where: { magnitudeKeys[$0] == magnitudeKeys[$1] && idKeys[$0] == idKeys[$1] }, by: { table.idPrecedes($0, $1) })
            return order
        }
        let wholeBySize = bySize(byID)
        spill?.releaseResident()
        self.bySize = held(wholeBySize)
        var apartBySize: [UInt32] = [], apartAfter: [Int] = []
        if let including {
            var heldBefore = 0
            for event in wholeBySize {
                if including[Int(event)] {
                    heldBefore += 1
                } else {
                    apartBySize.append(event)
                    apartAfter.append(heldBefore)
                }
            }
        }
        self.apartBySize = apartBySize
        self.apartAfter = apartAfter
        self.byRank = byRank
        var rank = [UInt32](repeating: including == nil ? 0 : .max, count: count)
        for (r, event) in byRank.enumerated() { rank[Int(event)] = UInt32(r) }
        self.rank = rank

        // By Morton code, equal codes by rank (the events usually come in Morton order already: see SelectionRead).
        let codes = (0..<count).map { Morton.code(x: worldX[$0], y: worldY[$0]) }
        order = held(RadixSort.order(by: codes) { rank[$0] < rank[$1] })
        morton = order.map { codes[Int($0)] }

        if buildTimeOrder {
            timeOrder = held(RadixSort.order(by: table.time.map { UInt64(bitPattern: $0) ^ (1 << 63) }) { table.idPrecedes($0, $1) })
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

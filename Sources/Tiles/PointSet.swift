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
    /// Fixed-point world x per event (see `WebMercator`). Like `worldY` and `morton`, in the
    /// table's spill file if it has one: the sweeps of the thinning read their own copies.
    public let worldX: SpillableArray<UInt32>
    /// Fixed-point world y per event.
    public let worldY: SpillableArray<UInt32>
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
    public let morton: SpillableArray<UInt64>
    /// Event numbers by time ascending, ties by id (built only when asked for: `--stride`).
    public let timeOrder: [UInt32]

    /// The spill file of its table (and of its positions and codes), if any.
    public var spill: SpillFile? { worldX.spill }

    /// For a loop along `order` (position `i`) that reads the positions, codes, magnitudes or
    /// times: every 65,536 positions, lets go of the spill file's pages read (see `SpillFile`).
    /// A tile of the lowest zooms holds most of the catalog: made in one go, it held some 100 MB
    /// of columns at once at 3,000,000 events, the export's peak.
    @inline(__always)
    public func releaseResident(scanning i: Int) {
        if i & 0xFFFF == 0xFFFF { spill?.releaseResident() }
    }

    /// Builds the point set of `table`, or of the events of it that `including` holds true for.
    public init(table: EventTable, buildTimeOrder: Bool, including: [Bool]? = nil) {
        count = table.count
        // Each step reads a column or two of the table whole: a table in a spill file lets go
        // of them after it (see `SpillFile`).
        let spill = table.spill
        let worldX = SpillableArray(table.scanned(table.longitude).map(WebMercator.worldX(longitude:)), spill: spill)
        let worldY = SpillableArray(table.scanned(table.latitude).map(WebMercator.worldY(latitude:)), spill: spill)
        self.worldX = worldX
        self.worldY = worldY
        magnitude = table.magnitude
        time = table.time

        func held(_ order: [UInt32]) -> [UInt32] {
            guard let including else { return order }
            return order.filter { including[Int($0)] }
        }
        // Each order in a function of its own: its sort keys (24 bytes an event) are let go of
        // before the next is made.
        let byRank = Self.priorityOrder(table, held: held)
        spill?.releaseResident()
        let wholeBySize = Self.sizeOrder(table)
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
        (order, morton) = Self.spatialOrder(worldX: worldX, worldY: worldY, rank: rank, held: held)

        if buildTimeOrder {
            timeOrder = held(RadixSort.order(by: table.time.map { UInt64(bitPattern: $0) ^ (1 << 63) }) { table.idPrecedes($0, $1) })
        } else {
            timeOrder = []
        }
    }

    /// The held events by Morton code of their position, equal codes by rank, with their codes
    /// (in the positions' spill file).
    private static func spatialOrder(worldX: SpillableArray<UInt32>, worldY: SpillableArray<UInt32>, rank: [UInt32],
                                     held: ([UInt32]) -> [UInt32]) -> ([UInt32], SpillableArray<UInt64>) {
        let codes = (0..<worldX.count).map { Morton.code(x: worldX[$0], y: worldY[$0]) }
        let order = held(RadixSort.order(by: codes) { rank[$0] < rank[$1] })
        return (order, SpillableArray(order.lazy.map { codes[Int($0)] }, spill: worldX.spill))
    }

    /// The held events of `table` by magnitude descending (unknown last), then time descending,
    /// then id ascending: radix sorts, each stable, by time then by magnitude; equal magnitude
    /// and time are put in id order after.
    private static func priorityOrder(_ table: EventTable, held: ([UInt32]) -> [UInt32]) -> [UInt32] {
        let timeKeys = Array(table.scanned(table.time).map { ~(UInt64(bitPattern: $0) ^ (1 << 63)) })
        let magnitudeKeys = Array(table.scanned(table.magnitude).map(Self.descendingKey))
        var byRank = RadixSort.order(by: magnitudeKeys, start: held(RadixSort.order(by: timeKeys)))
        RadixSort.sortRuns(&byRank, where: { magnitudeKeys[$0] == magnitudeKeys[$1] && timeKeys[$0] == timeKeys[$1] },
                           by: { table.idPrecedes($0, $1) })
        return byRank
    }

    /// Every event of `table` by magnitude descending (unknown last), then id ascending.
    private static func sizeOrder(_ table: EventTable) -> [UInt32] {
        let idKeys = Array(table.scanned(0..<table.count).map(table.idPrefixKey))
        let magnitudeKeys = Array(table.scanned(table.magnitude).map(Self.descendingKey))
        var order = RadixSort.order(by: magnitudeKeys, start: RadixSort.order(by: idKeys))
        RadixSort.sortRuns(&order, where: { magnitudeKeys[$0] == magnitudeKeys[$1] && idKeys[$0] == idKeys[$1] }, by: { table.idPrecedes($0, $1) })
        return order
    }

    /// A key that sorts magnitudes descending, unknown (NaN) last.
    private static func descendingKey(_ m: Double) -> UInt64 {
        if m.isNaN { return .max }
        let bits = (m == 0 ? 0.0 : m).bitPattern
        let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return ~ascending &- 1
    }
}

/// The position, time and magnitude of every quake of a bundle in memory, biggest first, for
/// the map's rectangle-and-time queries: "the 100 biggest in this rectangle, this week" and the
/// timeline of a rectangle.
///
/// A scan of columns, not an SQL query: the app database's R-tree finds a small rectangle's
/// quakes quickly, but a big one (a continent, the world) holds most of them, and ordering
/// them by magnitude costs every row; no index of the file answers "biggest first within a
/// rectangle and a time window" at once. Scanning these arrays in magnitude order and stopping at
/// the N-th match costs at most one pass of a few numbers a quake (about a millisecond for
/// 440,000 quakes, BENCHMARKS.md "queries"), whatever the rectangle and window. Made once per
/// opened version: 40 bytes a quake.
struct QuakeIndex {
    private var rowids: [Int64] = []
    private var longitudes: [Double] = []
    private var latitudes: [Double] = []
    private var times: [Int64] = []
    /// NaN where the magnitude is unknown.
    private var magnitudes: [Double] = []

    /// The quakes of `db`'s `events`, in the order queries return them: magnitude descending
    /// (unknown last), then time descending, then feature id ascending.
    init(_ db: SQLiteConnection) throws {
        var rowids: [Int64] = [], longitudes: [Double] = [], latitudes: [Double] = [], times: [Int64] = [], magnitudes: [Double] = []
        try db.query("SELECT rowid, longitude, latitude, time, mag FROM events") { row in
            rowids.append(row.integer(0) ?? 0)
            longitudes.append(row.real(1) ?? .nan)
            latitudes.append(row.real(2) ?? .nan)
            times.append(row.integer(3) ?? 0)
            magnitudes.append(row.real(4) ?? .nan)
        }
        let order = magnitudes.withUnsafeBufferPointer { mag in
            times.withUnsafeBufferPointer { time in
                rowids.withUnsafeBufferPointer { rowid in
                    (0..<rowid.count).sorted { a, b in
                        let (x, y) = (mag[a], mag[b])
                        if x.isNaN != y.isNaN { return y.isNaN }
                        if x != y, !x.isNaN { return x > y }
                        if time[a] != time[b] { return time[a] > time[b] }
                        return rowid[a] < rowid[b]
                    }
                }
            }
        }
        self.rowids = order.map { rowids[$0] }
        self.longitudes = order.map { longitudes[$0] }
        self.latitudes = order.map { latitudes[$0] }
        self.times = order.map { times[$0] }
        self.magnitudes = order.map { magnitudes[$0] }
    }

    var count: Int { rowids.count }

    /// The feature ids of the first `limit` quakes inside `rect` and `window`, biggest first.
    func biggest(in rect: MapRect, during window: TimeWindow, limit: Int) -> [Int64] {
        var found: [Int64] = []
        guard limit > 0 else { return found }
        scan(rect, from: window.start ?? .min, to: window.end) { i in
            found.append(rowids[i])
            return found.count < limit
        }
        return found
    }

    /// How many quakes inside `rect` fall in each of `bins` equal spans of `start..<end` (ms), and
    /// the biggest of each: a quake at `t` is in bin ⌊(t − start) · bins / (end − start)⌋, in exact
    /// integers (so bins meet without gaps or overlaps at any scale).
    func timeline(in rect: MapRect, start: Int64, end: Int64, bins: Int) -> [TimelineBin] {
        guard bins > 0, end > start else { return [] }
        let width = end - start
        let edges = (0...bins).map { start + Self.scaled(width, by: Int64($0), over: Int64(bins), roundingUp: true) }
        var counts = [Int](repeating: 0, count: bins), biggest = [Double](repeating: -.infinity, count: bins)
        let scale = Double(bins) / Double(width)
        edges.withUnsafeBufferPointer { edges in
            counts.withUnsafeMutableBufferPointer { counts in
                biggest.withUnsafeMutableBufferPointer { biggest in
                    times.withUnsafeBufferPointer { times in
                        magnitudes.withUnsafeBufferPointer { magnitudes in
                            scan(rect, from: start, to: end) { i in
                                // The bin by floating point, then set right against the exact edges (it is off by one at most).
                                let time = times[i]
                                var bin = min(bins - 1, max(0, Int(Double(time - start) * scale)))
                                while time < edges[bin] { bin -= 1 }
                                while time >= edges[bin + 1] { bin += 1 }
                                counts[bin] += 1
                                if magnitudes[i] > biggest[bin] { biggest[bin] = magnitudes[i] }
                                return true
                            }
                        }
                    }
                }
            }
        }
        return (0..<bins).map { bin in
            TimelineBin(start: edges[bin], end: edges[bin + 1], count: counts[bin], maxMagnitude: biggest[bin] == -.infinity ? nil : biggest[bin])
        }
    }

    /// Calls `visit` with each quake inside `rect` whose time is in `start..<end` (nil: open), in
    /// index order, until it returns false. The hot loop of every rectangle query: plain numbers
    /// through unchecked pointers, the cheapest test (time) first.
    @inline(__always) private func scan(_ rect: MapRect, from start: Int64, to end: Int64?, _ visit: (Int) -> Bool) {
        let end = end ?? .max  // times lie within ±2^53 (BundleSchema)
        let (south, north, west, east) = (rect.south, rect.north, rect.west, rect.east)
        let wraps = west > east
        times.withUnsafeBufferPointer { times in
            latitudes.withUnsafeBufferPointer { latitudes in
                longitudes.withUnsafeBufferPointer { longitudes in
                    for i in 0..<times.count {
                        let time = times[i]
                        guard time >= start && time < end else { continue }
                        let latitude = latitudes[i]
                        guard latitude >= south && latitude <= north else { continue }
                        let longitude = longitudes[i]
                        guard wraps ? (longitude >= west || longitude <= east) : (longitude >= west && longitude <= east) else { continue }
                        if !visit(i) { return }
                    }
                }
            }
        }
    }

    /// `value · factor / divisor` (all non-negative, the result below 2^63), rounded down or up, without overflow.
    private static func scaled(_ value: Int64, by factor: Int64, over divisor: Int64, roundingUp: Bool) -> Int64 {
        let product = UInt64(value).multipliedFullWidth(by: UInt64(factor))
        let (quotient, remainder) = UInt64(divisor).dividingFullWidth(product)
        return Int64(quotient) + (roundingUp && remainder > 0 ? 1 : 0)
    }

    /// The first and last origin time of all quakes, or nil when there are none.
    var timeSpan: (first: Int64, last: Int64)? {
        guard let first = times.min(), let last = times.max() else { return nil }
        return (first, last)
    }
}

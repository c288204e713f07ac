/// The position, time and magnitude of every quake of a bundle in memory, biggest first, for
/// the map's rectangle-and-time queries: "the 100 biggest in this rectangle, this week" and the
/// timeline of a rectangle.
///
/// A scan of columns, not an SQL query: the app database's R-tree finds a small rectangle's
/// quakes quickly, but a big one (a continent, the world) holds most of them, and ordering
/// them by magnitude costs every row; no index of the file answers "biggest first within a
/// rectangle and a time window" at once. Scanning these arrays in magnitude order and stopping at
/// the N-th match costs at most one pass of 5 numbers a quake (about a millisecond for 440,000
/// quakes, BENCHMARKS.md "queries"), whatever the rectangle and window. Made once per opened
/// version: about 40 bytes a quake.
struct QuakeIndex {
    private(set) var rowids: [Int64] = []
    private(set) var longitudes: [Double] = []
    private(set) var latitudes: [Double] = []
    private(set) var times: [Int64] = []
    /// NaN where the magnitude is unknown.
    private(set) var magnitudes: [Double] = []

    /// The quakes of `db`'s `events`, in the order queries return them: magnitude descending
    /// (unknown last), then time descending, then feature id ascending.
    init(_ db: SQLiteConnection) throws {
        var rows: [(rowid: Int64, longitude: Double, latitude: Double, time: Int64, mag: Double)] = []
        try db.query("SELECT rowid, longitude, latitude, time, mag FROM events") { row in
            rows.append((row.integer(0) ?? 0, row.real(1) ?? .nan, row.real(2) ?? .nan, row.integer(3) ?? 0, row.real(4) ?? .nan))
        }
        rows.sort { a, b in
            if a.mag.isNaN != b.mag.isNaN { return b.mag.isNaN }
            if a.mag != b.mag, !a.mag.isNaN { return a.mag > b.mag }
            if a.time != b.time { return a.time > b.time }
            return a.rowid < b.rowid
        }
        rowids.reserveCapacity(rows.count)
        for row in rows {
            rowids.append(row.rowid)
            longitudes.append(row.longitude)
            latitudes.append(row.latitude)
            times.append(row.time)
            magnitudes.append(row.mag)
        }
    }

    var count: Int { rowids.count }

    /// The feature ids of the first `limit` quakes inside `rect` and `window`, biggest first.
    func biggest(in rect: MapRect, during window: TimeWindow, limit: Int) -> [Int64] {
        var found: [Int64] = []
        guard limit > 0 else { return found }
        for i in 0..<rowids.count where window.contains(times[i]) && rect.contains(longitude: longitudes[i], latitude: latitudes[i]) {
            found.append(rowids[i])
            if found.count == limit { break }
        }
        return found
    }

    /// How many quakes inside `rect` fall in each of `bins` equal spans of `start..<end` (ms), and
    /// the biggest of each: a quake at `t` is in bin ⌊(t − start) · bins / (end − start)⌋, in exact
    /// integers (so bins meet without gaps or overlaps at any scale).
    func timeline(in rect: MapRect, start: Int64, end: Int64, bins: Int) -> [TimelineBin] {
        guard bins > 0, end > start else { return [] }
        let width = end - start
        var counts = [Int](repeating: 0, count: bins), biggest = [Double](repeating: -.infinity, count: bins)
        for i in 0..<rowids.count where times[i] >= start && times[i] < end && rect.contains(longitude: longitudes[i], latitude: latitudes[i]) {
            let bin = Int(Self.scaled(times[i] - start, by: Int64(bins), over: width, roundingUp: false))
            counts[bin] += 1
            if magnitudes[i] > biggest[bin] { biggest[bin] = magnitudes[i] }
        }
        let edges = (0...bins).map { start + Self.scaled(width, by: Int64($0), over: Int64(bins), roundingUp: true) }
        return (0..<bins).map { bin in
            TimelineBin(start: edges[bin], end: edges[bin + 1], count: counts[bin], maxMagnitude: biggest[bin] == -.infinity ? nil : biggest[bin])
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

import QuakeCommon

/// Figures over one attribute of many events, read straight from the columns (for the
/// `tilestats` of the tileset metadata, which look at every shown event).
extension EventTable {
    /// The values of attribute number `index` (in `attributes`) of the events `included` picks,
    /// as numbers, NULLs left out; text attributes and `minzoom` give none.
    public func numbers(_ index: Int, of included: (Int) -> Bool) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(count)
        func collect(_ value: (Int) -> Double?) {
            for e in 0..<count where included(e) {
                releaseResident(scanning: e)
                if let v = value(e) { out.append(v) }
            }
        }
        switch slots[index] {
        case .magnitude: collect { magnitude[$0].isNaN ? nil : magnitude[$0] }
        case .time: collect { Double(time[$0]) }
        case .real(let s): reals[s].withUnsafeBufferPointer { column in collect { column[$0].isNaN ? nil : column[$0] } }
        case .integer(let s): collect { integers[s][$0].map(Double.init) }
        case .id, .text, .category, .computed: break
        }
        return out
    }

    /// The first `limit` distinct values of text attribute number `index` among the events
    /// `included` picks, taken in the order of `events`.
    public func firstDistinctTexts(_ index: Int, in events: [UInt32], of included: (Int) -> Bool, limit: Int) -> [String] {
        var values: [String] = []
        if case .category(let s) = slots[index] {
            // Equal codes, equal text: no text is read but the first of each code.
            var seen = [Bool](repeating: false, count: categories[s].valueCount + 1)
            for e in events.lazy.map(Int.init) where included(e) {
                if values.count == limit { break }
                let code = Int(categories[s].code(e))
                guard code != 0, !seen[code] else { continue }
                seen[code] = true
                values.append(String(decoding: categories[s].value(code), as: UTF8.self))
            }
            return values
        }
        var seen = Set<UInt64>()
        for e in events.lazy.map(Int.init) where included(e) {
            if values.count == limit { break }
            guard case .text(let bytes) = value(index, e) else { continue }
            if seen.insert(SipHasher.hash(bytes)).inserted { values.append(String(decoding: bytes, as: UTF8.self)) }
        }
        return values
    }

    /// How many distinct values `numbers` holds and the smallest `limit` of them, ascending
    /// (-0 and 0 as 0): counted in a hash table while they are few (magnitudes, zooms), sorted
    /// whole, in place, when they are many (times, depths: `numbers` is then left sorted, and
    /// no list of them all is made, at the export's memory peak).
    public static func distinctValues(_ numbers: inout [Double], limit: Int) -> (count: Int, smallest: [Double], largest: Double?) {
        var index = ValueIndex(expected: 1 << 10)
        var distinct: [Double] = []
        // By position: a loop over the array itself would hold its storage, and sorting it
        // inside the loop would copy it.
        for i in numbers.indices {
            let v = numbers[i] == 0 ? 0.0 : numbers[i]
            if index.index(of: v.bitPattern, kind: .double, next: UInt32(distinct.count)) == nil { distinct.append(v) }
            if distinct.count > 1 << 12 { break }
        }
        guard distinct.count > 1 << 12 else {
            distinct.sort()
            return (distinct.count, Array(distinct.prefix(limit)), distinct.last)
        }
        RadixSort.sort(&numbers)
        var count = 0
        var smallest: [Double] = []
        var last: Double?
        for n in numbers where last != n {
            count += 1
            if smallest.count < limit { smallest.append(n) }
            last = n
        }
        return (count, smallest, last)
    }

    /// How many distinct values text attribute number `index` takes among the events `included`
    /// picks (NULLs not counted): exact for ids (unique in a selection) and categories, by a
    /// 64-bit hash for free text.
    public func distinctTextCount(_ index: Int, of included: (Int) -> Bool) -> Int {
        switch slots[index] {
        case .id:
            return (0..<count).reduce(0) { $0 + (included($1) ? 1 : 0) }
        case .category(let s):
            return categories[s].distinctCount(of: included)
        case .text(let s):
            var hashes = (0..<count).compactMap { included($0) ? texts[s].hash($0) : nil }
            RadixSort.sort(&hashes)
            var count = 0
            var last: UInt64?
            for h in hashes where h != last { count += 1; last = h }
            return count
        case .magnitude, .time, .real, .integer, .computed:
            return 0
        }
    }
}

extension TextColumn {
    /// A 64-bit hash of value `i` (`nil` for NULL), read in place, for counting distinct values.
    func hash(_ i: Int) -> UInt64? {
        let end = ends[i]
        if end & 0x8000_0000 != 0 { return nil }
        let start = i == 0 ? 0 : Int(ends[i - 1] & 0x7FFF_FFFF)
        return pool.withUnsafeBytes { TextHash.of(UnsafeRawBufferPointer(rebasing: $0[start..<Int(end)])) }
    }
}

extension CategoryColumn {
    /// How many distinct values the events `included` picks hold (NULLs not counted).
    func distinctCount(of included: (Int) -> Bool) -> Int {
        var seen = [Bool](repeating: false, count: valueCount + 1)
        var count = 0
        for e in 0..<self.count where included(e) {
            let code = Int(code(e))
            if code != 0 && !seen[code] {
                seen[code] = true
                count += 1
            }
        }
        return count
    }
}

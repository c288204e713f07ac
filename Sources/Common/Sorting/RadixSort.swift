/// Least-significant-digit radix sorts of 64-bit keys.
///
/// An export sorts half a million keys a dozen times (row keys, fingerprints, feature ids,
/// priority and Morton orders, R-tree order); the standard library's comparison sort takes
/// 50–70 ms for each, these a fraction of that. Hand-written because no package of the
/// mirror sorts integers by radix; it is small: one counting pass for all eight byte
/// digits, then one stable scatter per digit that is not the same for every key. Memory:
/// one buffer as large as the keys (and one as large as the positions, when ordering).
public enum RadixSort {
    /// Sorts `keys` ascending.
    public static func sort(_ keys: inout [UInt64]) {
        keys.withUnsafeMutableBufferPointer { sort($0) }
    }

    /// Sorts `values` ascending (no NaN among them; -0 and 0 come out as 0), in place.
    public static func sort(_ values: inout [Double]) {
        values.withUnsafeMutableBufferPointer { doubles in
            doubles.withMemoryRebound(to: UInt64.self) { keys in
                // The bits of a double, the sign bit flipped (all bits for negatives), sort as unsigned integers.
                for i in keys.indices {
                    let bits = keys[i] == 1 << 63 ? 0 : keys[i]
                    keys[i] = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
                }
                sort(keys)
                for i in keys.indices { keys[i] = keys[i] & (1 << 63) != 0 ? keys[i] & ~(1 << 63) : ~keys[i] }
            }
        }
    }

    /// The positions `0..<keys.count` ordered by `keys` ascending, equal keys ordered by
    /// `precedes`. Keys already in order, or in order but for a short tail (the events an
    /// incremental export appended), cost a pass and a merge instead of a sort.
    public static func order(by keys: [UInt64], tiesBy precedes: (Int, Int) -> Bool) -> [UInt32] {
        let n = keys.count
        let sortedPrefix = sortedPrefixCount(keys)
        var positions: [UInt32]
        if sortedPrefix == n {
            positions = Array(0..<UInt32(n))
        } else if n - sortedPrefix <= n / 16 {
            let tail = order(by: Array(keys[sortedPrefix...])).map { $0 + UInt32(sortedPrefix) }
            positions = []
            positions.reserveCapacity(n)
            var i = 0, j = 0
            while i < sortedPrefix || j < tail.count {
                if j == tail.count || (i < sortedPrefix && keys[i] <= keys[Int(tail[j])]) {
                    positions.append(UInt32(i))
                    i += 1
                } else {
                    positions.append(tail[j])
                    j += 1
                }
            }
        } else {
            positions = order(by: keys)
        }
        sortRuns(&positions, where: { keys[$0] == keys[$1] }, by: precedes)
        return positions
    }

    /// How many of the first keys are in ascending order.
    public static func sortedPrefixCount(_ keys: [UInt64]) -> Int {
        var count = min(keys.count, 1)
        while count < keys.count && keys[count - 1] <= keys[count] { count += 1 }
        return count
    }

    /// Sorts by `precedes` each run of neighbouring `positions` that are `equal` (to the run's first).
    public static func sortRuns(_ positions: inout [UInt32], where equal: (Int, Int) -> Bool, by precedes: (Int, Int) -> Bool) {
        var start = 0
        while start < positions.count {
            var end = start + 1
            while end < positions.count && equal(Int(positions[start]), Int(positions[end])) { end += 1 }
            if end - start > 1 { positions[start..<end].sort { precedes(Int($0), Int($1)) } }
            start = end
        }
    }

    /// The positions `0..<keys.count` ordered by `keys` ascending, equal keys in the order of
    /// `start` (`nil`: ascending positions). A stable sort: each key is compared once per digit.
    public static func order(by keys: consuming [UInt64], start: [UInt32]? = nil) -> [UInt32] {
        if let start {
            var sortedKeys = start.map { keys[Int($0)] }
            _ = consume keys
            return sortPairs(&sortedKeys, positions: start)
        }
        var sortedKeys = consume keys
        return sortPairs(&sortedKeys, positions: Array(0..<UInt32(sortedKeys.count)))
    }

    /// Sorts `keys` ascending and returns `positions` (one per key) reordered alike, equal keys
    /// keeping their order: the positions of the sorted keys.
    public static func sortPairs(_ keys: inout [UInt64], positions: consuming [UInt32]) -> [UInt32] {
        precondition(positions.count == keys.count, "RadixSort: \(positions.count) positions for \(keys.count) keys")
        guard keys.count > 1 else { return positions }
        let digits = varyingDigits(keys)
        var keyBuffer = [UInt64](repeating: 0, count: keys.count)
        var positionBuffer = [UInt32](repeating: 0, count: keys.count)
        var inBuffer = false
        keys.withUnsafeMutableBufferPointer { ka in
            keyBuffer.withUnsafeMutableBufferPointer { kb in
                positions.withUnsafeMutableBufferPointer { pa in
                    positionBuffer.withUnsafeMutableBufferPointer { pb in
                        for digit in digits {
                            if inBuffer {
                                scatter(kb.baseAddress!, pb.baseAddress!, into: ka.baseAddress!, pa.baseAddress!, count: ka.count, digit: digit)
                            } else {
                                scatter(ka.baseAddress!, pa.baseAddress!, into: kb.baseAddress!, pb.baseAddress!, count: ka.count, digit: digit)
                            }
                            inBuffer.toggle()
                        }
                        if inBuffer {
                            ka.baseAddress!.update(from: kb.baseAddress!, count: ka.count)
                            pa.baseAddress!.update(from: pb.baseAddress!, count: pa.count)
                        }
                    }
                }
            }
        }
        return positions
    }

    private static func sort(_ keys: UnsafeMutableBufferPointer<UInt64>) {
        guard keys.count > 1 else { return }
        let digits = varyingDigits(UnsafeBufferPointer(keys))
        var buffer = [UInt64](repeating: 0, count: keys.count)
        var inBuffer = false
        buffer.withUnsafeMutableBufferPointer { b in
            for digit in digits {
                let (source, target) = inBuffer ? (b, keys) : (keys, b)
                scatter(source.baseAddress!, nil, into: target.baseAddress!, nil, count: keys.count, digit: digit)
                inBuffer.toggle()
            }
            if inBuffer { keys.baseAddress!.update(from: b.baseAddress!, count: keys.count) }
        }
    }

    /// A byte digit that differs between keys: its shift and the first output slot of each value.
    private struct Digit {
        let shift: UInt64
        let offsets: [Int]
    }

    /// One stable pass: keys (and their positions, when given) from `keys` to `target` by `digit`.
    private static func scatter(_ keys: UnsafeMutablePointer<UInt64>, _ positions: UnsafeMutablePointer<UInt32>?,
                                into target: UnsafeMutablePointer<UInt64>, _ targetPositions: UnsafeMutablePointer<UInt32>?,
                                count: Int, digit: Digit) {
        var offsets = digit.offsets
        let shift = digit.shift
        offsets.withUnsafeMutableBufferPointer { offsets in
            let next = offsets.baseAddress!
            if let positions, let targetPositions {
                for i in 0..<count {
                    let key = keys[i]
                    let d = Int(truncatingIfNeeded: key &>> shift) & 0xFF
                    let slot = next[d]
                    target[slot] = key
                    targetPositions[slot] = positions[i]
                    next[d] = slot &+ 1
                }
            } else {
                for i in 0..<count {
                    let key = keys[i]
                    let d = Int(truncatingIfNeeded: key &>> shift) & 0xFF
                    let slot = next[d]
                    target[slot] = key
                    next[d] = slot &+ 1
                }
            }
        }
    }

    /// The digits, lowest first, on which the keys differ (the others need no pass).
    private static func varyingDigits(_ keys: [UInt64]) -> [Digit] {
        keys.withUnsafeBufferPointer { varyingDigits($0) }
    }

    private static func varyingDigits(_ keys: UnsafeBufferPointer<UInt64>) -> [Digit] {
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { c in
            let counts = c.baseAddress!
            for key in keys {
                var k = key
                for digit in 0..<8 {
                    counts[digit &<< 8 | Int(truncatingIfNeeded: k) & 0xFF] &+= 1
                    k &>>= 8
                }
            }
        }
        return (0..<8).compactMap { digit -> Digit? in
            let histogram = counts[(digit << 8)..<((digit + 1) << 8)]
            guard !histogram.contains(keys.count) else { return nil }
            var offsets = [Int](repeating: 0, count: 256)
            var total = 0
            for (value, count) in histogram.enumerated() {
                offsets[value] = total
                total += count
            }
            return Digit(shift: UInt64(8 * digit), offsets: offsets)
        }
    }
}

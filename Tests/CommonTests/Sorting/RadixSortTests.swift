import QuakeCommon
import Testing

/// The radix sorts against the standard library's sort, on keys shaped like the export's:
/// random, few distinct, already in order, in order but for a tail.
@Suite struct RadixSortTests {
    static func shapes() -> [(name: String, keys: [UInt64])] {
        var random = SeededGenerator(seed: 7)
        let spread = (0..<50_000).map { _ in random.next() }
        let few = (0..<50_000).map { _ in random.next() % 37 << 20 }
        let sorted = spread.sorted()
        let tail = sorted.prefix(47_500) + (0..<2_500).map { _ in random.next() }
        return [("random", spread), ("few distinct", few), ("sorted", sorted), ("sorted but a tail", Array(tail)),
                ("empty", []), ("one", [5])]
    }

    @Test func keysComeOutAsTheStandardSortPutsThem() {
        for (name, keys) in Self.shapes() {
            var sorted = keys
            RadixSort.sort(&sorted)
            #expect(sorted == keys.sorted(), "\(name)")
        }
    }

    @Test func orderIsStableAndBreaksTiesAsAsked() {
        for (name, keys) in Self.shapes() {
            let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map(UInt32.init)
            #expect(RadixSort.order(by: keys) == expected, "\(name)")
            let descendingTies = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 > $1 }.map(UInt32.init)
            #expect(RadixSort.order(by: keys) { $0 > $1 } == descendingTies, "\(name)")
            let start = Array((0..<UInt32(keys.count)).reversed())
            #expect(RadixSort.order(by: keys, start: start) == descendingTies, "\(name), from a start order")
        }
    }

    @Test func pairsMoveTogether() {
        var random = SeededGenerator(seed: 11)
        var keys = (0..<10_000).map { _ in random.next() % 1_000 }
        let original = keys
        let positions = RadixSort.sortPairs(&keys, positions: Array(0..<UInt32(keys.count)))
        #expect(keys == original.sorted())
        #expect(positions.map { original[Int($0)] } == keys)
    }

    @Test func doublesSortWithNegativesAndSignedZero() {
        var random = SeededGenerator(seed: 3)
        var values = (0..<20_000).map { _ in Double(Int64(bitPattern: random.next()) % 2_000_000) / 1_000 }
        values += [-0.0, 0.0, -.infinity, .infinity, -1e-300, 1e-300, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        var sorted = values
        RadixSort.sort(&sorted)
        #expect(sorted == values.sorted())
        #expect(!sorted.contains { $0 == 0 && $0.sign == .minus })
    }

    @Test func sortRunsOrdersEachRunOfEqualsAndNothingAcrossThem() {
        var random = SeededGenerator(seed: 5)
        // Groups of equal keys, as after a radix sort on the key; within a group the order is shuffled.
        let keys = (0..<2_000).map { _ in Int.random(in: 0..<40, using: &random) }.sorted()
        let tieBreak = (0..<keys.count).map { _ in Int.random(in: 0..<1_000_000, using: &random) }
        var positions = (0..<UInt32(keys.count)).map { $0 }
        for start in stride(from: 0, to: positions.count, by: 97) {  // shuffle inside groups only
            let end = min(start + 97, positions.count)
            positions[start..<end].sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : tieBreak[Int($0)] % 7 < tieBreak[Int($1)] % 7 }
        }
        let before = positions
        RadixSort.sortRuns(&positions, where: { keys[$0] == keys[$1] }, by: { tieBreak[$0] < tieBreak[$1] })
        let expected = before.sorted { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : tieBreak[Int($0)] < tieBreak[Int($1)] }
        #expect(positions == expected)
        #expect(Set(positions) == Set(before), "a permutation of what it was given")
    }
}

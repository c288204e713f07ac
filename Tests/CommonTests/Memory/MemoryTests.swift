import Foundation
import QuakeCommon
import Testing
import TestSupport

/// Big columns on the heap or in a spill file hold the same values; removal by position keeps order.
@Suite struct MemoryTests {
    @Test func aSpilledArrayHoldsWhatAnArrayOnTheHeapHolds() throws {
        let directory = TemporaryDirectory("spill")
        // No resident allowance: every page goes to the file.
        let spill = try #require(SpillFile(directory: directory.url, residentAllowance: 0))
        var random = SeededGenerator(seed: 11)
        let values = (0..<200_000).map { _ in random.next() }
        let onHeap = SpillableArray(values), spilled = SpillableArray(values, spill: spill)
        #expect(Array(onHeap) == values && Array(spilled) == values)
        #expect(spilled.spill != nil && onHeap.spill == nil)
        let order = (0..<UInt32(values.count)).reversed().map { $0 }
        #expect(Array(spilled.reordered(Array(order))) == values.reversed())
        // The scratch file is the spill's own, named so that a sweep knows it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { $0.hasPrefix(SpillFile.namePrefix) })
    }

    @Test func removalByPositionKeepsTheOthersInOrder() {
        var values = Array(0..<10)
        let kept = values.withUnsafeMutableBufferPointer { $0.compact(removing: [0, 3, 4, 9]) }
        #expect(Array(values.prefix(kept)) == [1, 2, 5, 6, 7, 8])
        var untouched = [1, 2, 3]
        #expect(untouched.withUnsafeMutableBufferPointer { $0.compact(removing: []) } == 3 && untouched == [1, 2, 3])
    }
}

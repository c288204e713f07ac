import QuakeCatalog
import Testing

/// A flood of bad items is counted whole and kept in part (memory and the store stay bounded).
@Suite struct RejectListTests {
    @Test func everyRejectIsCountedAndTheFirstThousandKept() {
        var first = RejectList(), second = RejectList()
        for i in 0..<1_500 { first.append(Reject(position: "line \(i)", reason: "time \(i) is not a valid time", raw: "x")) }
        for i in 0..<700 { second.append(Reject(position: "line \(1_500 + i)", reason: "latitude \(i) is outside", raw: "y")) }
        #expect(first.count == 1_500 && first.kept.count == RejectList.keptLimit && first.notKept == 500)
        first += second
        #expect(first.count == 2_200 && first.kept.count == RejectList.keptLimit)
        #expect(first.kept.last?.position == "line 999", "the first ones are kept, in order")
        #expect(first.commonKinds(2).map(\.kind) == ["time … is not a valid time", "latitude … is outside"])
        #expect(first.commonKinds(2).map(\.count) == [1_500, 700])
    }
}

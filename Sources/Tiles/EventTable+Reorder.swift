import QuakeCommon

/// Puts the events of a table in a new order, column by column.
extension EventTable {
    /// Reorders the events: event `i` becomes the one that was `order[i]` (`order` is a
    /// permutation of `0..<count`). One column is copied at a time (and, in a spill file, let
    /// go of once copied).
    public mutating func reorder(_ order: [UInt32]) {
        precondition(order.count == count, "reorder: \(order.count) positions for \(count) events")
        let spill = spill
        func step(_ body: () -> Void) {
            body()
            spill?.releaseResident()
        }
        step { longitude = longitude.reordered(order) }
        step { latitude = latitude.reordered(order) }
        step { magnitude = magnitude.reordered(order) }
        step { time = time.reordered(order) }
        step { fingerprint = fingerprint.reordered(order) }
        step { ids.reorder(order) }
        for i in texts.indices { step { texts[i].reorder(order) } }
        for i in categories.indices { step { categories[i].reorder(order) } }
        for i in reals.indices { step { reals[i] = reals[i].reordered(order) } }
        for i in integers.indices { step { integers[i].reorder(order) } }
    }
}

extension Array {
    /// The elements in `order`: element `i` of the result is `self[order[i]]`.
    public func reordered(_ order: [UInt32]) -> [Element] {
        withUnsafeBufferPointer { source in order.map { source[Int($0)] } }
    }
}

extension TextColumn {
    mutating func reorder(_ order: [UInt32]) {
        var newPool = SpillableArray<UInt8>(spill: pool.spill)
        newPool.reserveCapacity(pool.count)
        var newEnds = SpillableArray<UInt32>(spill: ends.spill)
        newEnds.reserveCapacity(ends.count)
        pool.withUnsafeBufferPointer { pool in
            for i in order {
                let end = ends[Int(i)]
                let start = i == 0 ? 0 : Int(ends[Int(i) - 1] & 0x7FFF_FFFF)
                newPool.append(contentsOf: UnsafeBufferPointer(rebasing: pool[start..<Int(end & 0x7FFF_FFFF)]))
                newEnds.append(UInt32(newPool.count) | (end & 0x8000_0000))
            }
        }
        pool = newPool
        ends = newEnds
    }
}

extension IntegerColumn {
    mutating func reorder(_ order: [UInt32]) {
        if let wide { self.wide = wide.reordered(order) } else { narrow = narrow.reordered(order) }
    }
}

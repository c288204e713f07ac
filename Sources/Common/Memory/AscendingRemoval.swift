/// Removing many elements at once, by position, in one pass: what the export does to its
/// columns when an incremental read drops the events that are gone or changed.
extension UnsafeMutableBufferPointer {
    /// Moves the elements not at `positions` (ascending) to the front, keeping their order;
    /// returns how many there are.
    @inlinable
    public func compact(removing positions: [Int]) -> Int {
        guard let first = positions.first else { return count }
        var write = first, next = 0
        for read in first..<count {
            if next < positions.count && positions[next] == read {
                next += 1
                continue
            }
            self[write] = self[read]
            write += 1
        }
        return write
    }
}

extension Array {
    /// Removes the elements at `positions` (ascending), keeping the order of the rest, in one pass.
    public mutating func remove(atAscending positions: [Int]) {
        let kept = withUnsafeMutableBufferPointer { $0.compact(removing: positions) }
        removeLast(count - kept)
    }
}

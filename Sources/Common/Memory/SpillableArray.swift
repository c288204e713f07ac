import Foundation

/// An array of plain values (numbers, bytes) kept in a `SpillFile` when it is made with one,
/// and on the heap otherwise: the storage of the export's per-event columns.
///
/// It is a value, like `Array`: copies share their storage until one of them changes
/// (copy on write), and a copy is made in the same spill file. Its storage never moves while
/// nothing changes it, so concurrent readers are safe, as with `Array`.
///
/// Its members are `@inlinable`, like `Array`'s: the thinning and the tile encoder read it in
/// their innermost loops, from other modules, where an unspecialized generic call per value
/// would cost more than the value.
@frozen
public struct SpillableArray<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @usableFromInline var storage: Storage
    @usableFromInline var storedCount: Int
    /// Number of values.
    @inlinable
    public var count: Int { storedCount }

    /// An empty array whose storage will be in `spill` (on the heap when `nil`).
    @inlinable
    public init(spill: SpillFile? = nil) {
        storage = Storage(capacity: 0, spill: spill)
        storedCount = 0
    }

    /// The values of `values`, in `spill`.
    @inlinable
    public init(_ values: some Sequence<Element>, spill: SpillFile? = nil) {
        self.init(spill: spill)
        reserveCapacity(values.underestimatedCount)
        for value in values { append(value) }
    }

    /// `count` values written by `body` into uninitialized storage, in `spill`.
    @inlinable
    public init(count: Int, spill: SpillFile?, initializingWith body: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
        storage = Storage(capacity: count, spill: spill)
        try body(UnsafeMutableBufferPointer(start: storage.base, count: count))
        storedCount = count
    }

    /// The spill file its storage is in (and that of its copies), if any.
    @inlinable
    public var spill: SpillFile? { storage.spill }

    @inlinable
    public var startIndex: Int { 0 }
    @inlinable
    public var endIndex: Int { count }
    @inlinable
    public var indices: Range<Int> { 0..<count }

    @inlinable
    public subscript(i: Int) -> Element {
        @inline(__always) get {
            precondition(i >= 0 && i < count, "SpillableArray index out of range")
            return storage.base[i]
        }
        set {
            precondition(i >= 0 && i < count, "SpillableArray index out of range")
            makeUnique(capacity: storage.capacity)
            storage.base[i] = newValue
        }
    }

    /// Makes room for `capacity` values without growing again.
    @inlinable
    public mutating func reserveCapacity(_ capacity: Int) {
        if capacity > storage.capacity { makeUnique(capacity: capacity) }
    }

    @inlinable
    public mutating func append(_ value: Element) {
        if count == storage.capacity || !isKnownUniquelyReferenced(&storage) { grow(to: count + 1) }
        (storage.base + count).initialize(to: value)
        storedCount += 1
    }

    @inlinable
    public mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
        guard let source = values.baseAddress, !values.isEmpty else { return }
        if count + values.count > storage.capacity || !isKnownUniquelyReferenced(&storage) { grow(to: count + values.count) }
        (storage.base + count).initialize(from: source, count: values.count)
        storedCount += values.count
    }

    /// Drops the last `k` values.
    @inlinable
    public mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "removeLast beyond the array")
        makeUnique(capacity: storage.capacity)
        storedCount -= k
    }

    /// Drops the spare room grown into while appending (a copy, when there is much of it).
    @inlinable
    public mutating func shrinkToFit() {
        if storage.capacity > count + count / 16 { makeUnique(capacity: count, always: true) }
    }

    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: count))
    }

    @inlinable
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        makeUnique(capacity: storage.capacity)
        return try body(UnsafeMutableBufferPointer(start: storage.base, count: count))
    }

    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.base, count: count * MemoryLayout<Element>.stride))
    }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        try withUnsafeBufferPointer(body)
    }

    /// The values in `order`: value `i` of the result is `self[order[i]]` (in the same spill file).
    @inlinable
    public func reordered(_ order: [UInt32]) -> SpillableArray {
        withUnsafeBufferPointer { source in
            SpillableArray(count: order.count, spill: spill) { target in
                for (i, position) in order.enumerated() { (target.baseAddress! + i).initialize(to: source[Int(position)]) }
            }
        }
    }

    /// Removes the values at `positions` (ascending), keeping the order of the rest, in one pass.
    @inlinable
    public mutating func remove(atAscending positions: [Int]) {
        let kept = withUnsafeMutableBufferPointer { $0.compact(removing: positions) }
        removeLast(count - kept)
    }

    @inlinable
    mutating func grow(to needed: Int) {
        makeUnique(capacity: Swift.max(needed, storage.capacity * 2, 16), always: true)
    }

    /// Gives the array storage of its own with room for `capacity` values (a copy when
    /// `always`, when it is shared, or when `capacity` differs from what it has).
    @inlinable
    mutating func makeUnique(capacity: Int, always: Bool = false) {
        guard always || capacity != storage.capacity || !isKnownUniquelyReferenced(&storage) else { return }
        let copy = Storage(capacity: capacity, spill: storage.spill)
        copy.base.initialize(from: storage.base, count: count)
        storage = copy
    }

    /// Where the values are: heap memory, or room in a spill file, freed with the last copy.
    @usableFromInline
    final class Storage {
        @usableFromInline let spill: SpillFile?
        @usableFromInline let base: UnsafeMutablePointer<Element>
        @usableFromInline let capacity: Int
        private let inFile: Bool
        /// Less than a page stays on the heap: a spill file hands out whole pages.
        private static var smallest: Int { 1 << 12 }

        @usableFromInline
        init(capacity: Int, spill: SpillFile?) {
            self.spill = spill
            self.capacity = capacity
            let bytes = Swift.max(1, capacity) * MemoryLayout<Element>.stride
            if bytes >= Self.smallest, let room = spill?.allocate(bytes) {
                base = room.bindMemory(to: Element.self, capacity: Swift.max(1, capacity))
                inFile = true
            } else {
                base = .allocate(capacity: Swift.max(1, capacity))
                inFile = false
            }
        }

        deinit {
            if inFile {
                spill?.free(UnsafeMutableRawPointer(base), bytes: Swift.max(1, capacity) * MemoryLayout<Element>.stride)
            } else {
                base.deallocate()
            }
        }
    }
}

extension Slice {
    /// The bytes of a slice of a byte array kept in a spill file, in place.
    @inlinable
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R where Base == SpillableArray<UInt8> {
        try base.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[startIndex..<endIndex])) }
    }
}

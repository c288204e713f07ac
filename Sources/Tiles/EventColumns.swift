import Foundation
import QuakeCommon

/// The bytes of one text value of a table, in place in its column.
public typealias TextBytes = Slice<SpillableArray<UInt8>>

/// Text values in one byte pool; `ends[i]` is where value i ends, its top bit set for NULL.
public struct TextColumn: Sendable {
    var pool: SpillableArray<UInt8>
    var ends: SpillableArray<UInt32>

    init(spill: SpillFile?) {
        pool = SpillableArray(spill: spill)
        ends = SpillableArray(spill: spill)
    }

    mutating func reserveCapacity(_ events: Int) { ends.reserveCapacity(events) }

    /// Drops the spare capacity the pool grew into while appending.
    mutating func shrinkToFit() {
        pool.shrinkToFit()
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        if let bytes {
            pool.append(contentsOf: bytes.bindMemory(to: UInt8.self))
            ends.append(UInt32(pool.count))
        } else {
            ends.append(UInt32(pool.count) | 0x8000_0000)
        }
    }

    /// Removes the values at `removed` (ascending positions).
    mutating func removeValues(_ removed: [Int]) {
        guard let first = removed.first else { return }
        // Values before the first removed one stay where they are.
        var write = first, poolWrite = first == 0 ? 0 : Int(ends[first - 1] & 0x7FFF_FFFF), next = 0
        var start = poolWrite
        ends.withUnsafeMutableBufferPointer { ends in
            pool.withUnsafeMutableBufferPointer { pool in
                for read in first..<ends.count {
                    let end = ends[read]
                    let length = Int(end & 0x7FFF_FFFF) - start
                    defer { start += length }
                    if next < removed.count && removed[next] == read {
                        next += 1
                        continue
                    }
                    if poolWrite != start { memmove(pool.baseAddress! + poolWrite, pool.baseAddress! + start, length) }
                    poolWrite += length
                    ends[write] = UInt32(poolWrite) | (end & 0x8000_0000)
                    write += 1
                }
            }
        }
        ends.removeLast(ends.count - write)
        pool.removeLast(pool.count - poolWrite)
    }

    /// True when value `a` sorts before value `b`, bytewise (NULL first), compared in place.
    /// The first 8 bytes of value `i`, big-endian, zero-padded (NULL gives 0): keys that sort as
    /// the values do, except that values sharing their first 8 bytes have equal keys.
    func prefixKey(_ i: Int) -> UInt64 {
        let end = ends[i]
        if end & 0x8000_0000 != 0 { return 0 }
        let start = i == 0 ? 0 : Int(ends[i - 1] & 0x7FFF_FFFF)
        var key: UInt64 = 0
        for k in 0..<8 { key = key << 8 | UInt64(start + k < Int(end) ? pool[start + k] : 0) }
        return key
    }

    func precedes(_ a: Int, _ b: Int) -> Bool {
        let endA = ends[a], endB = ends[b]
        if endA & 0x8000_0000 != 0 || endB & 0x8000_0000 != 0 { return endA & 0x8000_0000 != 0 && endB & 0x8000_0000 == 0 }
        let startA = a == 0 ? 0 : Int(ends[a - 1] & 0x7FFF_FFFF), startB = b == 0 ? 0 : Int(ends[b - 1] & 0x7FFF_FFFF)
        let countA = Int(endA) - startA, countB = Int(endB) - startB
        let order = pool.withUnsafeBufferPointer { memcmp($0.baseAddress! + startA, $0.baseAddress! + startB, min(countA, countB)) }
        return order != 0 ? order < 0 : countA < countB
    }

    /// Value number `i`, or `nil` for NULL.
    public subscript(i: Int) -> TextBytes? {
        let end = ends[i]
        if end & 0x8000_0000 != 0 { return nil }
        let start = i == 0 ? 0 : Int(ends[i - 1] & 0x7FFF_FFFF)
        return pool[start..<Int(end)]
    }
}

/// Whole numbers: 32 bits each until a value does not fit, 64 bits from then on.
struct IntegerColumn: Sendable {
    private static let null32 = Int32.min
    private static let null64 = Int64.min
    var narrow: SpillableArray<Int32>
    var wide: SpillableArray<Int64>?

    init(spill: SpillFile?) { narrow = SpillableArray(spill: spill) }

    mutating func append(_ value: Int64?) {
        if wide != nil {
            wide!.append(value ?? Self.null64)
        } else if let value, value <= Int64(Self.null32) || value > Int64(Int32.max) {
            wide = SpillableArray(narrow.lazy.map { $0 == Self.null32 ? Self.null64 : Int64($0) }, spill: narrow.spill)
            narrow = SpillableArray(spill: narrow.spill)
            wide!.append(value)
        } else {
            narrow.append(value.map { Int32($0) } ?? Self.null32)
        }
    }

    mutating func reserveCapacity(_ events: Int) { narrow.reserveCapacity(events) }

    /// Removes the values at `removed` (ascending positions).
    mutating func removeValues(_ removed: [Int]) {
        if wide != nil { wide!.remove(atAscending: removed) } else { narrow.remove(atAscending: removed) }
    }

    subscript(i: Int) -> Int64? {
        if let wide { return wide[i] == Self.null64 ? nil : wide[i] }
        return narrow[i] == Self.null32 ? nil : Int64(narrow[i])
    }
}

/// Text values that repeat (event type, status, place, …) as codes into a table of the
/// distinct values (code 0 = NULL): 16 bits per event while there are fewer than 65,536
/// distinct values, 32 bits from then on. A place name repeats: 107,619 distinct among the
/// 440,633 events of 2022–2026, 102,086 among 3,000,000 synthetic ones (where the text took
/// 32 bytes an event with its end offset, the codes take 4).
///
/// The distinct values are one byte pool with their end offsets, in the table's spill file
/// like the codes: a catalog's real place names ("37 km SSW of Ridgecrest, CA") are distinct
/// by the hundred thousand, and an array per value cost some 100 bytes of heap each. The
/// hash table that finds a value's code is only needed while events are appended, and is
/// let go of once the table is read (`dropLookup`; made again by the next append).
struct CategoryColumn: Sendable {
    private static let narrowLimit = Int(UInt16.max)
    /// The codes while they fit 16 bits (empty once `isWide`).
    private(set) var narrow: SpillableArray<UInt16>
    /// The codes once a value needed code 65,536 or beyond.
    private(set) var wide: SpillableArray<UInt32>
    private(set) var isWide = false
    /// The distinct values, end to end; code c names the bytes from `valueEnds[c - 2]` (0 for
    /// c = 1) to `valueEnds[c - 1]`.
    private(set) var valuePool: SpillableArray<UInt8>
    private(set) var valueEnds: SpillableArray<UInt32>
    /// The codes by the hash of their text (open addressing, 0 = free; built on first append).
    private var slots: [UInt32] = []
    private var lastCode: UInt32 = 0

    init(spill: SpillFile?) {
        narrow = SpillableArray(spill: spill)
        wide = SpillableArray(spill: spill)
        valuePool = SpillableArray(spill: spill)
        valueEnds = SpillableArray(spill: spill)
    }

    /// A column of `codes` into the values of `valuePool` ending at `valueEnds` (code 0 = NULL).
    init(narrow: SpillableArray<UInt16>, wide: SpillableArray<UInt32>?, valuePool: SpillableArray<UInt8>, valueEnds: SpillableArray<UInt32>) {
        self.narrow = narrow
        self.wide = wide ?? SpillableArray(spill: narrow.spill)
        isWide = wide != nil
        self.valuePool = valuePool
        self.valueEnds = valueEnds
    }

    /// Number of events.
    var count: Int { isWide ? wide.count : narrow.count }

    /// Number of distinct values (the highest code).
    var valueCount: Int { valueEnds.count }

    /// The text of code `code` (1…`valueCount`), in place.
    func value(_ code: Int) -> TextBytes {
        valuePool[(code == 1 ? 0 : Int(valueEnds[code - 2]))..<Int(valueEnds[code - 1])]
    }

    /// The code of event `i`: equal codes, equal text; 0 for NULL.
    @inline(__always)
    func code(_ i: Int) -> UInt32 { isWide ? wide[i] : UInt32(narrow[i]) }

    mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else { return appendCode(0) }
        if lastCode == 0 || !same(Int(lastCode), bytes) { lastCode = code(of: bytes) }
        appendCode(lastCode)
    }

    /// Lets go of the hash table of the values (a later append makes it again).
    mutating func dropLookup() {
        slots = []
        valuePool.shrinkToFit()
    }

    /// The code of `bytes`, a new one when the text is new. (A hash table over the values
    /// themselves: a dictionary keyed by byte arrays made an array per event to look one up.)
    private mutating func code(of bytes: UnsafeRawBufferPointer) -> UInt32 {
        if slots.count < 2 * valueCount + 16 { rehash() }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: TextHash.of(bytes)) & mask
        while slots[i] != 0 {
            if same(Int(slots[i]), bytes) { return slots[i] }
            i = (i + 1) & mask
        }
        valuePool.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        valueEnds.append(UInt32(valuePool.count))
        slots[i] = UInt32(valueCount)
        return slots[i]
    }

    /// Makes the table four times the room the values take, at least, and puts every code in it.
    private mutating func rehash() {
        var size = 64
        while size < 4 * valueCount + 32 { size *= 2 }
        slots = [UInt32](repeating: 0, count: size)
        for code in stride(from: 1, through: valueCount, by: 1) {
            var i = value(code).withUnsafeBytes { Int(truncatingIfNeeded: TextHash.of($0)) } & (size - 1)
            while slots[i] != 0 { i = (i + 1) & (size - 1) }
            slots[i] = UInt32(code)
        }
    }

    private mutating func appendCode(_ code: UInt32) {
        if isWide { return wide.append(code) }
        if code <= UInt32(Self.narrowLimit) { return narrow.append(UInt16(code)) }
        wide = SpillableArray(narrow.lazy.map(UInt32.init), spill: narrow.spill)
        narrow = SpillableArray(spill: narrow.spill)
        isWide = true
        wide.append(code)
    }

    mutating func reserveCapacity(_ events: Int) {
        if isWide { wide.reserveCapacity(events) } else { narrow.reserveCapacity(events) }
    }

    /// Removes the values at `removed` (ascending positions).
    mutating func removeValues(_ removed: [Int]) {
        if isWide { wide.remove(atAscending: removed) } else { narrow.remove(atAscending: removed) }
        lastCode = 0
    }

    /// Puts the events in a new order: event `i` becomes the one that was `order[i]`.
    mutating func reorder(_ order: [UInt32]) {
        if isWide { wide = wide.reordered(order) } else { narrow = narrow.reordered(order) }
        lastCode = 0
    }

    /// Whether the text of code `code` is `bytes`.
    private func same(_ code: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
        value(code).withUnsafeBytes { a in
            guard a.count == bytes.count else { return false }
            guard let pa = a.baseAddress, let pb = bytes.baseAddress else { return true }
            return memcmp(pa, pb, a.count) == 0
        }
    }

    subscript(i: Int) -> TextBytes? {
        let code = code(i)
        return code == 0 ? nil : value(Int(code))
    }
}

import Foundation

/// Text values in one byte pool; `ends[i]` is where value i ends, its top bit set for NULL.
public struct TextColumn: Sendable {
    var pool: [UInt8] = []
    var ends: [UInt32] = []

    public init() {}

    mutating func reserveCapacity(_ events: Int) { ends.reserveCapacity(events) }

    /// Drops the spare capacity the pool grew into while appending.
    mutating func shrinkToFit() {
        if pool.capacity > pool.count + pool.count / 16 { pool = pool.withUnsafeBufferPointer { Array($0) } }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        if let bytes {
            pool.append(contentsOf: bytes)
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
            pool.withUnsafeMutableBytes { pool in
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
    public subscript(i: Int) -> ArraySlice<UInt8>? {
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
    var narrow: [Int32] = []
    var wide: [Int64]?

    mutating func append(_ value: Int64?) {
        if wide != nil {
            wide!.append(value ?? Self.null64)
        } else if let value, value <= Int64(Self.null32) || value > Int64(Int32.max) {
            wide = narrow.map { $0 == Self.null32 ? Self.null64 : Int64($0) }
            wide!.reserveCapacity(narrow.capacity)
            narrow = []
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

/// Text values with few distinct values (event type, status, …), as 16-bit codes into
/// a table (code 0 = NULL). Past 65,535 distinct values the rest are kept as text.
struct CategoryColumn: Sendable {
    private(set) var codes: [UInt16] = []
    private(set) var values: [[UInt8]] = []
    private var lookup: [[UInt8]: UInt16] = [:]
    private var lastCode: UInt16 = 0
    /// Values past the code space, by event.
    private(set) var overflow: [Int: [UInt8]] = [:]

    init() {}

    /// A column of `codes` into `values` (code 0 = NULL, `UInt16.max` = the event's entry in `overflow`).
    init(codes: [UInt16], values: [[UInt8]], overflow: [Int: [UInt8]]) {
        self.codes = codes
        self.values = values
        self.overflow = overflow
        lookup = Dictionary(values.enumerated().map { ($1, UInt16($0 + 1)) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else { codes.append(0); return }
        if lastCode != 0, values[Int(lastCode) - 1].withUnsafeBytes({ Self.same($0, bytes) }) {
            codes.append(lastCode)
            return
        }
        let key = [UInt8](bytes)
        if let known = lookup[key] {
            lastCode = known
        } else if values.count < Int(UInt16.max) - 1 {
            values.append(key)
            lastCode = UInt16(values.count)
            lookup[key] = lastCode
        } else {
            overflow[codes.count] = key
            codes.append(UInt16.max)
            return
        }
        codes.append(lastCode)
    }

    mutating func reserveCapacity(_ events: Int) { codes.reserveCapacity(events) }

    /// Removes the values at `removed` (ascending positions).
    mutating func removeValues(_ removed: [Int]) {
        codes.remove(atAscending: removed)
        lastCode = 0
        guard !overflow.isEmpty else { return }
        var moved: [Int: [UInt8]] = [:]
        for (event, value) in overflow {
            var low = 0, high = removed.count
            while low < high {
                let mid = (low + high) / 2
                if removed[mid] < event { low = mid + 1 } else { high = mid }
            }
            if low < removed.count && removed[low] == event { continue }
            moved[event - low] = value
        }
        overflow = moved
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    }

    subscript(i: Int) -> ArraySlice<UInt8>? {
        switch codes[i] {
        case 0: return nil
        case UInt16.max: return overflow[i]![...]
        case let code: return values[Int(code) - 1][...]
        }
    }
}

import Foundation

/// The selected events held in memory as compact columns: what thinning needs
/// (position, magnitude, time, id) plus the attributes the tiles carry.
///
/// Built once by the exporter from the store, then only read. Text lives in one
/// byte pool per column, low-cardinality text as small codes, numbers in plain
/// arrays (NaN or `Int64.min` standing for NULL), so a million events with the
/// default attributes take about 150 MB.
public struct EventTable: Sendable {
    /// The attributes the tiles carry, in tile order.
    public let attributes: [EventAttribute]
    /// The attributes whose values are appended per event after `appendEvent`, in this order:
    /// `attributes` without `id`, `mag` and `time` (core fields) and `minzoom` (computed).
    public let storedAttributes: [EventAttribute]
    /// Longitude per event, degrees, exact as stored.
    public internal(set) var longitude: [Double] = []
    /// Latitude per event, degrees, exact as stored.
    public internal(set) var latitude: [Double] = []
    /// Magnitude, NaN when unknown.
    public internal(set) var magnitude: [Double] = []
    /// Origin time, ms since 1970 UTC.
    public internal(set) var time: [Int64] = []
    /// The USGS id of each event.
    public internal(set) var ids = TextColumn()
    /// A hash of everything exported about each event, its id included (see the exporter); equal fingerprints, equal tiles.
    public internal(set) var fingerprint: [UInt64] = []

    // Internal (not private) for the binary form in EventTableCoding.swift.
    var slots: [Slot] = []
    var texts: [TextColumn] = []
    var categories: [CategoryColumn] = []
    var reals: [[Double]] = []
    var integers: [IntegerColumn] = []

    /// Where one attribute's values are kept.
    enum Slot: Sendable { case id, magnitude, time, text(Int), category(Int), real(Int), integer(Int), computed }
    var storedSlots: [Slot] = []

    /// One attribute value of one event.
    public enum Value: Sendable, Equatable {
        case text(ArraySlice<UInt8>)
        case real(Double)
        case integer(Int64)
    }

    /// An empty table for events carrying `attributes`.
    public init(attributes: [EventAttribute]) {
        self.attributes = attributes
        var stored: [EventAttribute] = []
        for attribute in attributes {
            let slot: Slot
            switch (attribute, attribute.kind) {
            case (.id, _): slot = .id
            case (.mag, _): slot = .magnitude
            case (.time, _): slot = .time
            case (_, .computed): slot = .computed
            case (_, .text): slot = .text(texts.count); texts.append(TextColumn())
            case (_, .category): slot = .category(categories.count); categories.append(CategoryColumn())
            case (_, .real): slot = .real(reals.count); reals.append([])
            case (_, .integer): slot = .integer(integers.count); integers.append(IntegerColumn())
            }
            slots.append(slot)
            switch slot {
            case .id, .magnitude, .time, .computed: break
            default: stored.append(attribute); storedSlots.append(slot)
            }
        }
        storedAttributes = stored
    }

    /// Number of events.
    public var count: Int { time.count }

    /// Reserves room for `events` events in the numeric columns (the byte pools grow as needed).
    public mutating func reserveCapacity(_ events: Int) {
        longitude.reserveCapacity(events)
        latitude.reserveCapacity(events)
        magnitude.reserveCapacity(events)
        time.reserveCapacity(events)
        fingerprint.reserveCapacity(events)
        ids.reserveCapacity(events)
        for i in texts.indices { texts[i].reserveCapacity(events) }
        for i in categories.indices { categories[i].reserveCapacity(events) }
        for i in reals.indices { reals[i].reserveCapacity(events) }
        for i in integers.indices { integers[i].reserveCapacity(events) }
    }

    /// Drops spare capacity of the text pools once every event is in.
    public mutating func shrinkToFit() {
        ids.shrinkToFit()
        for i in texts.indices { texts[i].shrinkToFit() }
    }

    /// Removes the events whose numbers are in `removed` (ascending); the others keep their order
    /// and are renumbered from 0. Works in place: no second copy of the table.
    public mutating func removeEvents(_ removed: [Int]) {
        guard !removed.isEmpty else { return }
        precondition(zip(removed, removed.dropFirst()).allSatisfy { $0 < $1 } && removed.last! < count, "removeEvents needs ascending event numbers")
        longitude.remove(atAscending: removed)
        latitude.remove(atAscending: removed)
        magnitude.remove(atAscending: removed)
        time.remove(atAscending: removed)
        fingerprint.remove(atAscending: removed)
        ids.removeValues(removed)
        for i in texts.indices { texts[i].removeValues(removed) }
        for i in categories.indices { categories[i].removeValues(removed) }
        for i in reals.indices { reals[i].remove(atAscending: removed) }
        for i in integers.indices { integers[i].removeValues(removed) }
    }

    /// Starts a new event with its core fields; its attribute values follow with the `append…` calls,
    /// one per attribute of `storedAttributes`, in that order.
    public mutating func appendEvent(id: UnsafeRawBufferPointer, longitude: Double, latitude: Double,
                                     magnitude: Double?, time: Int64, fingerprint: UInt64) {
        ids.append(id)
        self.longitude.append(longitude)
        self.latitude.append(latitude)
        self.magnitude.append(magnitude ?? .nan)
        self.time.append(time)
        self.fingerprint.append(fingerprint)
    }

    /// Appends the value of stored attribute number `index` (in `storedAttributes`) of the current event:
    /// text, `nil` for NULL.
    public mutating func appendText(_ index: Int, _ bytes: UnsafeRawBufferPointer?) {
        switch storedSlots[index] {
        case .text(let s): texts[s].append(bytes)
        case .category(let s): categories[s].append(bytes)
        default: preconditionFailure("\(storedAttributes[index]) is not text")
        }
    }

    /// Appends the value of stored attribute number `index` of the current event: a real, `nil` for NULL.
    public mutating func appendReal(_ index: Int, _ value: Double?) {
        guard case .real(let s) = storedSlots[index] else { preconditionFailure("\(storedAttributes[index]) is not a real") }
        reals[s].append(value ?? .nan)
    }

    /// Appends the value of stored attribute number `index` of the current event: an integer, `nil` for NULL.
    public mutating func appendInteger(_ index: Int, _ value: Int64?) {
        guard case .integer(let s) = storedSlots[index] else { preconditionFailure("\(storedAttributes[index]) is not an integer") }
        integers[s].append(value)
    }

    /// The value of attribute number `index` (in `attributes`) for event `event`; `nil` for NULL
    /// and for `minzoom`, which thinning supplies.
    @inline(__always)
    public func value(_ index: Int, _ event: Int) -> Value? {
        switch slots[index] {
        case .id: return ids[event].map(Value.text)
        case .magnitude:
            let v = magnitude[event]
            return v.isNaN ? nil : .real(v)
        case .time: return .integer(time[event])
        case .text(let s): return texts[s][event].map(Value.text)
        case .category(let s): return categories[s][event].map(Value.text)
        case .real(let s):
            let v = reals[s][event]
            return v.isNaN ? nil : .real(v)
        case .integer(let s):
            return integers[s][event].map(Value.integer)
        case .computed: return nil
        }
    }

    /// Whether attribute number `index` holds text with few distinct values, kept as codes (see `categoryCode`).
    public func isCategory(_ index: Int) -> Bool {
        if case .category = slots[index] { return true }
        return false
    }

    /// The code of the value of category attribute number `index` for event `event`: equal codes,
    /// equal text; 0 for NULL, and `UInt16.max` for a value past the code space (compare its text).
    @inline(__always)
    public func categoryCode(_ index: Int, _ event: Int) -> UInt16 {
        guard case .category(let s) = slots[index] else { preconditionFailure("\(attributes[index]) is not a category") }
        return categories[s].codes[event]
    }

    /// True when the id of event `a` sorts before the id of event `b` (bytewise UTF-8).
    public func idPrecedes(_ a: Int, _ b: Int) -> Bool {
        ids.precedes(a, b)
    }

    /// The USGS id of event `i` as a string.
    public func id(_ i: Int) -> String { String(decoding: ids[i]!, as: UTF8.self) }
}

extension Array {
    /// Removes the elements at `positions` (ascending), keeping the order of the rest, in one pass.
    public mutating func remove(atAscending positions: [Int]) {
        guard let first = positions.first else { return }
        var write = first, next = 0
        withUnsafeMutableBufferPointer { buffer in
            for read in first..<buffer.count {
                if next < positions.count && positions[next] == read {
                    next += 1
                    continue
                }
                buffer[write] = buffer[read]
                write += 1
            }
        }
        removeLast(count - write)
    }
}

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

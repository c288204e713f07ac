import Foundation
import QuakeCommon

/// The selected events held in memory as compact columns: what thinning needs
/// (position, magnitude, time, id) plus the attributes the tiles carry.
///
/// Built once by the exporter from the store, then only read. Text lives in one
/// byte pool per column, text that repeats as codes, numbers in plain
/// arrays (NaN or `Int64.min` standing for NULL), so a million events with the
/// default attributes take about 85 MB. Made with a `SpillFile`, the table keeps its
/// columns there rather than on the heap (the export of the whole catalog does).
public struct EventTable: Sendable {
    /// The attributes the tiles carry, in tile order.
    public let attributes: [EventAttribute]
    /// The attributes whose values are appended per event after `appendEvent`, in this order:
    /// `attributes` without `id`, `mag` and `time` (core fields) and `minzoom` (computed).
    public let storedAttributes: [EventAttribute]
    /// Longitude per event, degrees, exact as stored.
    public internal(set) var longitude: SpillableArray<Double>
    /// Latitude per event, degrees, exact as stored.
    public internal(set) var latitude: SpillableArray<Double>
    /// Magnitude, NaN when unknown.
    public internal(set) var magnitude: SpillableArray<Double>
    /// Origin time, ms since 1970 UTC.
    public internal(set) var time: SpillableArray<Int64>
    /// The USGS id of each event.
    public internal(set) var ids: TextColumn
    /// A hash of everything exported about each event, its id included (see the exporter); equal fingerprints, equal tiles.
    public internal(set) var fingerprint: SpillableArray<UInt64>
    /// Where the columns are kept (`nil`: on the heap).
    public let spill: SpillFile?

    // Internal (not private) for the binary form in EventTableCoding.swift.
    var slots: [Slot] = []
    var texts: [TextColumn] = []
    var categories: [CategoryColumn] = []
    var reals: [SpillableArray<Double>] = []
    var integers: [IntegerColumn] = []

    /// Where one attribute's values are kept.
    enum Slot: Sendable { case id, magnitude, time, text(Int), category(Int), real(Int), integer(Int), computed }
    var storedSlots: [Slot] = []

    /// One attribute value of one event.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case text(TextBytes)
        case real(Double)
        case integer(Int64)

        public static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.text(let x), .text(let y)): return x.elementsEqual(y)
            case (.real(let x), .real(let y)): return x == y
            case (.integer(let x), .integer(let y)): return x == y
            default: return false
            }
        }

        public var description: String {
            switch self {
            case .text(let bytes): return "text(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
            case .real(let v): return "real(\(v))"
            case .integer(let v): return "integer(\(v))"
            }
        }
    }

    /// An empty table for events carrying `attributes`, its columns in `spill` (on the heap when `nil`).
    public init(attributes: [EventAttribute], spill: SpillFile? = nil) {
        self.attributes = attributes
        self.spill = spill
        longitude = SpillableArray(spill: spill)
        latitude = SpillableArray(spill: spill)
        magnitude = SpillableArray(spill: spill)
        time = SpillableArray(spill: spill)
        fingerprint = SpillableArray(spill: spill)
        ids = TextColumn(spill: spill)
        var stored: [EventAttribute] = []
        for attribute in attributes {
            let slot: Slot
            switch (attribute, attribute.kind) {
            case (.id, _): slot = .id
            case (.mag, _): slot = .magnitude
            case (.time, _): slot = .time
            case (_, .computed): slot = .computed
            case (_, .text): slot = .text(texts.count); texts.append(TextColumn(spill: spill))
            case (_, .category): slot = .category(categories.count); categories.append(CategoryColumn(spill: spill))
            case (_, .real): slot = .real(reals.count); reals.append(SpillableArray(spill: spill))
            case (_, .integer): slot = .integer(integers.count); integers.append(IntegerColumn(spill: spill))
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

    /// Drops spare capacity of the text pools, and the categories' lookup tables, once every
    /// event is in (appending more still works: it makes the lookups again).
    public mutating func shrinkToFit() {
        ids.shrinkToFit()
        for i in texts.indices { texts[i].shrinkToFit() }
        for i in categories.indices { categories[i].dropLookup() }
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

    /// Whether attribute number `index` holds text that repeats, kept as codes (see `categoryCode`).
    public func isCategory(_ index: Int) -> Bool {
        if case .category = slots[index] { return true }
        return false
    }

    /// The code of the value of category attribute number `index` for event `event`: equal codes,
    /// equal text; 0 for NULL.
    @inline(__always)
    public func categoryCode(_ index: Int, _ event: Int) -> UInt32 {
        guard case .category(let s) = slots[index] else { preconditionFailure("\(attributes[index]) is not a category") }
        return categories[s].code(event)
    }

    /// True when the id of event `a` sorts before the id of event `b` (bytewise UTF-8).
    public func idPrecedes(_ a: Int, _ b: Int) -> Bool {
        ids.precedes(a, b)
    }

    /// A sort key of event `i`'s id: ids with different keys sort as their keys; equal keys need `idPrecedes`.
    public func idPrefixKey(_ i: Int) -> UInt64 {
        ids.prefixKey(i)
    }

    /// For a loop over the events of a table in a spill file in table order: every 65,536
    /// events (`k` counts them), lets go of the pages read (see `SpillFile`), so that what the
    /// loop holds is what it reads at the moment, not all it has read.
    @inline(__always)
    public func releaseResident(scanning k: Int) {
        if k & 0xFFFF == 0xFFFF { spill?.releaseResident() }
    }

    /// The elements of `values` (a column of the table, or its event numbers), read in order
    /// with `releaseResident(scanning:)` as they are read.
    public func scanned<C: RandomAccessCollection>(_ values: C) -> LazyMapSequence<C.Indices, C.Element> where C.Index == Int {
        values.indices.lazy.map { i in
            releaseResident(scanning: i - values.startIndex)
            return values[i]
        }
    }

    /// For a loop that picks events here and there from a table in a spill file: the same,
    /// every 32 events. (Reading one value maps the 64 KB around it, the kernel's fault-around:
    /// picks far apart hold 64 KB of every column each until let go of.)
    @inline(__always)
    public func releaseResident(picking k: Int) {
        if k & 0x1F == 0x1F { spill?.releaseResident() }
    }

    /// The USGS id of event `i` as a string.
    public func id(_ i: Int) -> String { String(decoding: ids[i]!, as: UTF8.self) }
}

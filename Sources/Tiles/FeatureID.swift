import QuakeCommon

/// The MVT feature id of an event: a stable number derived from its USGS id string.
///
/// id = SipHash-2-4 (key bytes 0x00…0x0f, `SipHasher.fixedKey0/1`) of the id's UTF-8
/// bytes, keeping the low 53 bits so that JavaScript map libraries (whose numbers
/// are doubles) hold it exactly, e.g. for `feature-state`. The same id gives the
/// same number on every machine and every run.
///
/// Ids must be unique within a layer. When two ids of a selection hash to the same
/// number (about one chance in 18,000 at a million events), the id that sorts first
/// keeps it and each other one takes the first free number among
/// SipHash(id bytes + 0x00 + k) for k = 1, 2, …, so the outcome depends only on the
/// selection.
public enum FeatureID {
    /// The 53-bit mask.
    public static let mask: UInt64 = (1 << 53) - 1

    /// The base number of an id (before collision handling).
    public static func base<Bytes: Sequence<UInt8>>(_ id: Bytes) -> UInt64 {
        SipHasher.hash(id) & mask
    }

    /// The numbers of every event of `table`, unique across the selection.
    /// (`bits` narrows the numbers so tests can force collisions.)
    public static func assign(_ table: EventTable, bits: Int = 53) -> FeatureIDs {
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        func numbers() -> [UInt64] { Array(table.scanned(0..<table.count).map { base(table.ids[$0]!) & mask }) }
        var sorted = numbers()
        RadixSort.sort(&sorted)
        var shared = Set<UInt64>()
        for (a, b) in zip(sorted, sorted.dropFirst()) where a == b { shared.insert(a) }
        sorted = []
        guard !shared.isEmpty else { return FeatureIDs(ids: table.ids, mask: mask, moved: [:]) }
        // Collisions are rare: the numbers are made again rather than kept beside the sorted ones.
        let numbers = numbers()
        var groups: [UInt64: [Int]] = [:]
        for (event, number) in numbers.enumerated() where shared.contains(number) { groups[number, default: []].append(event) }
        let collided = groups.values.flatMap { $0.sorted { table.idPrecedes($0, $1) }.dropFirst() }
        var moved: [UInt32: UInt64] = [:]
        var taken = Set(numbers)
        for event in collided.sorted(by: { table.idPrecedes($0, $1) }) {
            var k: UInt64 = 1
            while true {
                var candidate = Array(table.ids[event]!)
                candidate.append(0)
                withUnsafeBytes(of: k.littleEndian) { candidate.append(contentsOf: $0) }
                let number = SipHasher.hash(candidate) & mask
                if taken.insert(number).inserted {
                    moved[UInt32(event)] = number
                    break
                }
                k += 1
            }
        }
        return FeatureIDs(ids: table.ids, mask: mask, moved: moved)
    }
}

/// The feature id of every event of a selection, computed when asked (the base number)
/// or looked up (the few that moved because of a collision): no array of a million numbers
/// (the export's memory budget is tight).
public struct FeatureIDs: Sendable {
    private let ids: TextColumn
    private let mask: UInt64
    private let moved: [UInt32: UInt64]
    /// `moved` by USGS id.
    private let movedByID: [String: UInt64]

    init(ids: TextColumn, mask: UInt64, moved: [UInt32: UInt64]) {
        self.ids = ids
        self.mask = mask
        self.moved = moved
        movedByID = Dictionary(uniqueKeysWithValues: moved.map { (String(decoding: ids[Int($0.key)]!, as: UTF8.self), $0.value) })
    }

    /// The events whose number is not the base number of their id (moved by a collision), ascending.
    public var movedEvents: [Int] { moved.keys.map(Int.init).sorted() }

    /// The number of event `event` when a collision moved it off the base number of its id, else `nil`.
    public func movedNumber(_ event: Int) -> UInt64? {
        moved.isEmpty ? nil : moved[UInt32(event)]
    }

    /// The feature id of the event whose USGS id is `id` (an event of the selection).
    public func number(id: String) -> UInt64 {
        if !movedByID.isEmpty, let number = movedByID[id] { return number }
        return FeatureID.base(id.utf8) & mask
    }

    /// The feature id of event number `event`.
    public subscript(event: Int) -> UInt64 {
        if !moved.isEmpty, let number = moved[UInt32(event)] { return number }
        return FeatureID.base(ids[event]!) & mask
    }
}

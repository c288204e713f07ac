import QuakeCommon

/// The table that finds an id's number in `IDForest`: open addressing (linear probing) in
/// 256 segments, picked by the top byte of the id's hash, each growing on its own by half
/// when it is 75% full. A single table of a few million ids would, while doubling, hold the
/// old and the new table at once (48 MB at three million ids) at the very moment the index
/// build holds the most; a segment's growth is 1/256 of that, and growing by half rather
/// than doubling keeps the table at 50–75% full (4 bytes a slot, about 6.5 an id).
struct IDSlots {
    private var segments: [[Int32]]
    private var counts: [Int]

    /// An empty table with room for about `expected` ids before its segments grow.
    init(expected: Int) {
        var capacity = 16
        while capacity * 3 < expected / Self.segmentCount * 4 { capacity += capacity / 2 }
        segments = Array(repeating: [Int32](repeating: -1, count: capacity), count: Self.segmentCount)
        counts = Array(repeating: 0, count: Self.segmentCount)
    }

    private static let segmentCount = 256

    /// The hash the table files the id `bytes` under.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        // TextHash, then a finalizer (MurmurHash3's), so that the top byte is as mixed as the low ones.
        var h = TextHash.of(bytes)
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }

    /// The first number filed under `hash` that `matches` accepts, if any.
    func find(hash: UInt64, where matches: (Int32) -> Bool) -> Int32? {
        segments[Int(hash >> 56)].withUnsafeBufferPointer { slots in
            var slot = Self.start(hash, count: slots.count)
            while slots[slot] >= 0 {
                if matches(slots[slot]) { return slots[slot] }
                slot = slot + 1 == slots.count ? 0 : slot + 1
            }
            return nil
        }
    }

    /// Files `number` under `hash`; `hashOf` gives the hash of any number already filed (a
    /// segment that doubles files its numbers again).
    mutating func insert(_ number: Int32, hash: UInt64, hashOf: (Int32) -> UInt64) {
        let segment = Int(hash >> 56)
        if (counts[segment] + 1) * 4 > segments[segment].count * 3 {
            var grown = [Int32](repeating: -1, count: segments[segment].count + segments[segment].count / 2)
            for filed in segments[segment] where filed >= 0 { Self.place(filed, hash: hashOf(filed), in: &grown) }
            segments[segment] = grown
        }
        Self.place(number, hash: hash, in: &segments[segment])
        counts[segment] += 1
    }

    private static func place(_ number: Int32, hash: UInt64, in slots: inout [Int32]) {
        var slot = start(hash, count: slots.count)
        while slots[slot] >= 0 { slot = slot + 1 == slots.count ? 0 : slot + 1 }
        slots[slot] = number
    }

    /// Where probing for `hash` starts among `count` slots: the low 32 bits scaled to the count
    /// (the top byte chose the segment).
    private static func start(_ hash: UInt64, count: Int) -> Int {
        Int(((hash & 0xFFFF_FFFF) &* UInt64(count)) >> 32)
    }
}

import QuakeCommon

/// The value table of a layer being built: which value index each distinct tag value has.
///
/// An open-addressing hash table (linear probing) from a value's kind and 64-bit key (a
/// number's bits, or a text's hash) to its index, with the text bytes kept to tell texts
/// apart. Written by hand because the standard Dictionary hashes every key again through
/// SipHash, and a tile of 30,000 quakes looks up some 200,000 values: this is a third of the
/// cost.
struct ValueIndex {
    /// What the key of a slot is.
    enum Kind: UInt8 { case double = 1, unsigned, signed, text }

    private var keys: [UInt64]
    /// Kind (0 = empty slot) and value index + 1 per slot, packed: kind << 32 | index + 1.
    private var entries: [UInt64]
    private var mask: Int
    private(set) var count = 0
    /// The bytes of each text value, by value index (empty for the other kinds).
    private var texts: [TextBytes] = []

    /// A table for about `expected` values.
    init(expected: Int) {
        var capacity = 16
        while capacity < expected * 2 { capacity <<= 1 }
        keys = Array(repeating: 0, count: capacity)
        entries = Array(repeating: 0, count: capacity)
        mask = capacity - 1
    }

    /// The index of the number (by its bits) of `kind`, or `nil` after noting it as value `next`.
    mutating func index(of key: UInt64, kind: Kind, next: UInt32) -> UInt32? {
        if (count + 1) * 2 > keys.count { grow() }
        var slot = Self.slot(key, kind: kind) & mask
        while entries[slot] != 0 {
            if keys[slot] == key && Self.kind(of: entries[slot]) == kind.rawValue { return Self.index(of: entries[slot]) }
            slot = (slot + 1) & mask
        }
        note(key, kind: kind, index: next, at: slot)
        return nil
    }

    /// The index of the text `bytes`, or `nil` after noting it as value `next`.
    mutating func index(ofText bytes: TextBytes, next: UInt32) -> UInt32? {
        if (count + 1) * 2 > keys.count { grow() }
        let key = bytes.withUnsafeBytes(TextHash.of)
        var slot = Self.slot(key, kind: .text) & mask
        while entries[slot] != 0 {
            if keys[slot] == key && Self.kind(of: entries[slot]) == Kind.text.rawValue {
                let index = Self.index(of: entries[slot])
                if texts[Int(index)].elementsEqual(bytes) { return index }
            }
            slot = (slot + 1) & mask
        }
        note(key, kind: .text, index: next, at: slot)
        while texts.count < Int(next) { texts.append(SpillableArray<UInt8>()[...]) }
        texts.append(bytes)
        return nil
    }

    private mutating func note(_ key: UInt64, kind: Kind, index: UInt32, at slot: Int) {
        keys[slot] = key
        entries[slot] = UInt64(kind.rawValue) << 32 | UInt64(index + 1)
        count += 1
    }

    private static func kind(of entry: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: entry >> 32) }
    private static func index(of entry: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: entry) - 1 }

    private mutating func grow() {
        let oldKeys = keys, oldEntries = entries
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        entries = Array(repeating: 0, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (key, entry) in zip(oldKeys, oldEntries) where entry != 0 {
            var slot = Self.slot(key, kind: Kind(rawValue: Self.kind(of: entry))!) & mask
            while entries[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            entries[slot] = entry
        }
    }

    /// A slot for a key: its bits mixed (Fibonacci hashing) so that nearby numbers spread out.
    private static func slot(_ key: UInt64, kind: Kind) -> Int {
        Int(truncatingIfNeeded: ((key ^ UInt64(kind.rawValue) &* 0x9E37_79B9_7F4A_7C15) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}

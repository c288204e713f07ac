/// Builds one MVT 2.1 layer of point features: keys and values deduplicated in
/// order of first use, features in the order added, written straight into one
/// buffer (no allocation per feature).
///
/// Message fields (vector_tile.proto 2.1): Layer { name = 1, features = 2,
/// keys = 3, values = 4, extent = 5, version = 15 }; Feature { id = 1,
/// tags = 2 (packed), type = 3 (POINT = 1), geometry = 4 (packed) };
/// Value { string = 1, double = 3, uint = 5, sint = 6 }.
struct PointLayerBuilder {
    let name: String
    /// Every key the layer may use; a tag names its key by position here.
    private let keyNames: [String]
    /// Position in `keyNames` → index in the layer's key table (-1 until first used).
    private var keyIndex: [Int32]
    private var usedKeys: [Int] = []
    private var features = ProtobufWriter(capacity: 1 << 14)
    private var values = ProtobufWriter(capacity: 1 << 12)
    private var valueCount: UInt32 = 0
    private var valueIndex: ValueIndex
    private var tags: [UInt32] = []
    /// Per key position: value index + 1 by category code (0 = not seen yet), in an array for
    /// codes below `smallCodes` (event types, statuses) and in a table for the others (place
    /// names), so that a tile does not allocate room for every code up to the largest it meets.
    private var codeValues: [[UInt32]]
    private var largeCodeValues: [[UInt32: UInt32]]
    private static let smallCodes: UInt32 = 4096
    private(set) var featureCount = 0

    /// A tag value.
    enum Value {
        case text(TextBytes)
        /// Text known to differ from every other value of the layer (the USGS id): no lookup needed.
        case uniqueText(TextBytes)
        case double(Double)
        case unsigned(UInt64)
        case signed(Int64)
    }

    /// A layer whose tags use `keys`; `features` (expected) sizes the tables up front.
    init(name: String, keys: [String], features: Int) {
        self.name = name
        keyNames = keys
        keyIndex = Array(repeating: -1, count: keys.count)
        codeValues = Array(repeating: [], count: keys.count)
        largeCodeValues = Array(repeating: [:], count: keys.count)
        valueIndex = ValueIndex(expected: features * 2)
    }

    /// Starts a feature's tag list.
    mutating func beginFeature() { tags.removeAll(keepingCapacity: true) }

    /// Adds a tag to the current feature: key number `key` (a position in `keys`) with `value`.
    mutating func tag(_ key: Int, _ value: Value) {
        tags.append(keyNumber(key))
        tags.append(index(of: value))
    }

    /// Adds a tag whose value is text known by a category code (equal codes, equal text): the
    /// value table is searched once per code, and `value` is asked for only then.
    mutating func tag(_ key: Int, code: UInt32, _ value: () -> Value) {
        tags.append(keyNumber(key))
        let small = code < Self.smallCodes
        let known = small ? (Int(code) < codeValues[key].count ? codeValues[key][Int(code)] : 0) : largeCodeValues[key][code] ?? 0
        if known != 0 { return tags.append(known - 1) }
        let i = index(of: value())
        if small {
            if codeValues[key].count <= Int(code) { codeValues[key] += Array(repeating: 0, count: Int(code) + 1 - codeValues[key].count) }
            codeValues[key][Int(code)] = i + 1
        } else {
            largeCodeValues[key][code] = i + 1
        }
        tags.append(i)
    }

    /// The number of key `key` in the layer's key table, adding it on first use.
    private mutating func keyNumber(_ key: Int) -> UInt32 {
        var k = keyIndex[key]
        if k < 0 {
            k = Int32(usedKeys.count)
            keyIndex[key] = k
            usedKeys.append(key)
        }
        return UInt32(k)
    }

    /// Ends the current feature: a point at (x, y) tile units with feature id `id`.
    mutating func endFeature(id: UInt64, x: Int32, y: Int32) {
        var tagBytes = 0
        for t in tags { tagBytes += ProtobufWriter.varintSize(UInt64(t)) }
        let zx = UInt64(ProtobufWriter.zigzag32(x)), zy = UInt64(ProtobufWriter.zigzag32(y))
        let geometryBytes = 1 + ProtobufWriter.varintSize(zx) + ProtobufWriter.varintSize(zy)
        var length = 1 + ProtobufWriter.varintSize(id) + 2 + 2 + geometryBytes
        if !tags.isEmpty { length += 1 + ProtobufWriter.varintSize(UInt64(tagBytes)) + tagBytes }
        features.key(2, .lengthDelimited)
        features.varint(UInt64(length))
        features.varintField(1, id)
        if !tags.isEmpty {
            features.key(2, .lengthDelimited)
            features.varint(UInt64(tagBytes))
            for t in tags { features.varint(UInt64(t)) }
        }
        features.varintField(3, 1)
        // One MoveTo command with one point: (1 & 0x7) | (1 << 3) = 9, then zigzag deltas from (0, 0).
        features.key(4, .lengthDelimited)
        features.varint(UInt64(geometryBytes))
        features.varint(9)
        features.varint(zx)
        features.varint(zy)
        featureCount += 1
    }

    /// The encoded layer message.
    func encoded(extent: Int) -> [UInt8] {
        var layer = ProtobufWriter(capacity: features.bytes.count + values.bytes.count + 256)
        layer.bytesField(1, Array(name.utf8))
        layer.append(features.bytes)
        for key in usedKeys { layer.bytesField(3, Array(keyNames[key].utf8)) }
        layer.append(values.bytes)
        layer.varintField(5, UInt64(extent))
        layer.varintField(15, 2)
        return layer.bytes
    }

    /// The index of `value` in the layer's value table, appending it when new.
    /// Each Value message is written in place: key 4, its length, then its one field.
    private mutating func index(of value: Value) -> UInt32 {
        switch value {
        case .uniqueText(let bytes):
            return appendText(bytes)
        case .text(let bytes):
            if let i = valueIndex.index(ofText: bytes, next: valueCount) { return i }
            return appendText(bytes)
        case .double(let v):
            if let i = valueIndex.index(of: v.bitPattern, kind: .double, next: valueCount) { return i }
            values.key(4, .lengthDelimited)
            values.varint(9)
            values.fixed64Field(3, v.bitPattern)
        case .unsigned(let v):
            if let i = valueIndex.index(of: v, kind: .unsigned, next: valueCount) { return i }
            values.key(4, .lengthDelimited)
            values.varint(UInt64(1 + ProtobufWriter.varintSize(v)))
            values.varintField(5, v)
        case .signed(let v):
            if let i = valueIndex.index(of: UInt64(bitPattern: v), kind: .signed, next: valueCount) { return i }
            let zigzag = ProtobufWriter.zigzag64(v)
            values.key(4, .lengthDelimited)
            values.varint(UInt64(1 + ProtobufWriter.varintSize(zigzag)))
            values.varintField(6, zigzag)
        }
        valueCount += 1
        return valueCount - 1
    }

    private mutating func appendText(_ bytes: TextBytes) -> UInt32 {
        values.key(4, .lengthDelimited)
        values.varint(UInt64(1 + ProtobufWriter.varintSize(UInt64(bytes.count)) + bytes.count))
        values.bytesField(1, bytes)
        valueCount += 1
        return valueCount - 1
    }
}

import Foundation

/// An object a new pointer names, and where its bytes come from.
struct PlannedObject: Sendable {
    /// Its key relative to the prefix (`objects/<sha256>.<ext>`).
    let key: String
    let bytes: Int64
    /// The lowercase hex sha256 of its bytes.
    let sha256: String
    let contentType: String
    let source: Source

    enum Source: Sendable {
        /// A local file, uploaded whole.
        case file(URL)
        /// A local file whose object the store assembles from `parts`: uploaded regions of the
        /// file and copies of another object's bytes (the PMTiles object, see `PMTilesComposer`).
        case assembled(URL, parts: [Part])
        /// In the store already (an older version's base or step): nothing to upload from here.
        case store
    }

    /// Whether the store makes it from another object's bytes alone (a rider, see `PMTilesComposer`).
    var copiesOthers: Bool {
        if case .assembled(_, let parts) = source { return parts.allSatisfy { if case .copy = $0 { true } else { false } } }
        return false
    }

    /// One part of an assembled object.
    enum Part: Sendable {
        /// `length` bytes of the local file from `offset`.
        case upload(offset: Int64, length: Int64)
        /// The store copies these bytes (inclusive offsets) of the object at `key` (a full key).
        case copy(key: String, range: ClosedRange<Int64>)

        var length: Int64 {
            switch self {
            case .upload(_, let length): length
            case .copy(_, let range): range.upperBound - range.lowerBound + 1
            }
        }
    }
}

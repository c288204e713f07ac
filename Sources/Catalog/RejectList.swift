/// The items of a page or file that could not be read as events: every one counted, and
/// counted by kind, but only the first `keptLimit` kept whole, so that a file of millions
/// of bad items costs bounded memory here and a bounded `rejects` table in the store.
/// Iterating it gives the kept ones, in document order.
public struct RejectList: Sendable, Sequence, ExpressibleByArrayLiteral {
    /// Rejects kept whole (position, reason, raw text); the rest are only counted.
    public static let keptLimit = 1_000
    /// Kinds counted apart, at most; the rest count under `otherKinds`.
    static let kindLimit = 100
    /// The kind that rejects of kinds beyond `kindLimit` count under.
    static let otherKinds = "other reasons"

    /// The first `keptLimit` rejects.
    public private(set) var kept: [Reject] = []
    /// Every reject, kept or not.
    public private(set) var count = 0
    /// How many rejects of each kind (`Reject.kind`).
    public private(set) var kinds: [String: Int] = [:]
    /// The last reason and its kind: a flood of bad items mostly repeats one reason.
    private var lastKind: (reason: String, kind: String)?

    public init(arrayLiteral rejects: Reject...) {
        for reject in rejects { append(reject) }
    }

    public var isEmpty: Bool { count == 0 }
    /// The first reject.
    public var first: Reject? { kept.first }
    /// Rejects counted but not kept.
    public var notKept: Int { count - kept.count }

    /// The `limit` most common kinds, most common first (ties by kind).
    public func commonKinds(_ limit: Int) -> [(kind: String, count: Int)] {
        kinds.map { (kind: $0.key, count: $0.value) }.sorted { ($0.count, $1.kind) > ($1.count, $0.kind) }.prefix(limit).map { $0 }
    }

    public mutating func append(_ reject: Reject) {
        count += 1
        if kept.count < Self.keptLimit { kept.append(reject) }
        let kind = lastKind.flatMap { $0.reason == reject.reason ? $0.kind : nil } ?? reject.kind
        lastKind = (reject.reason, kind)
        add(count: 1, of: kind)
    }

    /// Counts `count` rejects of `kind`, under `otherKinds` once `kindLimit` kinds are counted.
    private mutating func add(count: Int, of kind: String) {
        kinds[kinds[kind] != nil || kinds.count < Self.kindLimit ? kind : Self.otherKinds, default: 0] += count
    }

    /// `rejects` after these: kept up to the limit, all counted.
    public static func += (list: inout RejectList, rejects: RejectList) {
        list.count += rejects.count
        list.kept += rejects.kept.prefix(Swift.max(0, keptLimit - list.kept.count))
        for (kind, count) in rejects.kinds { list.add(count: count, of: kind) }
    }

    public func makeIterator() -> IndexingIterator<[Reject]> { kept.makeIterator() }
}

import QuakeCommon
import QuakeTiles

/// The selection as read from the store, with what the next export needs to read only
/// the rows that changed since: the key of every row, selected or not.
struct StoreSnapshot: Sendable {
    /// The selected events.
    var table: EventTable
    /// The row key of each event of `table` (beside its columns, in their spill file if any).
    var eventKeys: SpillableArray<UInt64>
    /// The row keys of the store's other rows (outside the selection), ascending.
    var otherKeys: [UInt64]

    /// The keys of `all` (ascending) that are not among `selected` (any order).
    static func otherKeys(all: [UInt64], selected: SpillableArray<UInt64>) -> [UInt64] {
        // The selected keys are those of some of the rows: as many as all of them means all of them.
        if selected.count == all.count { return [] }
        var selected = Array(selected)
        RadixSort.sort(&selected)
        var others: [UInt64] = []
        var j = 0
        for key in all {
            while j < selected.count && selected[j] < key { j += 1 }
            if j == selected.count || selected[j] != key { others.append(key) }
        }
        return others
    }

    /// The keys of every row: the events' and the others', ascending.
    var allKeys: [UInt64] {
        var all = Array(eventKeys) + otherKeys
        RadixSort.sort(&all)
        return all
    }
}

/// The key of a store row: a hash of its id and its `updated`.
///
/// The store keeps one row per id and replaces it only with a version whose `updated` is
/// strictly greater (the version rule, docs/store.md), so a row whose id and
/// `updated` are unchanged holds the same content: an export that knows the keys of the
/// rows it read needs to read again only the rows whose key it does not know.
enum RowKey {
    static func of(id: UnsafeRawBufferPointer, updated: Int64) -> UInt64 {
        var hasher = SipHasher()
        hasher.combine(bytes: id)
        hasher.combine(updated)
        return hasher.finalize()
    }
}

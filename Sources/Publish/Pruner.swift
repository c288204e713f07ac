import Foundation
import Logging
import QuakeBundleKit

/// `--keep N` once the pointer has moved: the objects no kept version names are deleted.
/// The kept versions are the newest N history records (each a pointer as published) and the
/// current pointer; only keys under the prefix's `objects/` and `history/` that publish names
/// (`objects/<64 hex>[.ext]`, `history/<time>-<64 hex>.json`) are ever deleted.
struct Pruner {
    let client: S3Client
    let target: S3Target
    let keep: Int
    let logger: Logger

    static let objectsFolder = "objects/"
    static let historyFolder = "history/"

    /// Prunes; returns how many objects were deleted.
    func prune(current: PublishedPointer) async throws -> Int {
        let records = try await client.list(prefix: target.key(Self.historyFolder)).compactMap { target.relative($0.key) }
            .filter(Self.isHistoryRecord).sorted()
        let kept = Array(records.suffix(keep))
        var named = Self.keys(of: current)
        for record in kept {
            guard let data = try await client.get(target.key(record), limit: Publisher.maximumPointerBytes),
                  let pointer = try? JSONDecoder().decode(PublishedPointer.self, from: data) else {
                logger.warning("\(target)/\(record) is not a readable pointer: nothing is pruned this time")
                return 0
            }
            named.formUnion(Self.keys(of: pointer))
        }
        var deleted = 0
        for (key, _) in try await client.list(prefix: target.key(Self.objectsFolder)) {
            guard let relative = target.relative(key), Self.isObject(relative), !named.contains(relative) else { continue }
            logger.debug("pruning \(relative): no kept version names it")
            try await client.delete(key)
            deleted += 1
        }
        for record in records.dropLast(keep) {
            try await client.delete(target.key(record))
            deleted += 1
        }
        return deleted
    }

    /// Every key a pointer names.
    static func keys(of pointer: PublishedPointer) -> Set<String> {
        Set(pointer.files.map(\.key) + pointer.deltas.flatMap { $0.files.map(\.key) })
    }

    static func isObject(_ key: String) -> Bool {
        guard key.hasPrefix(objectsFolder) else { return false }
        let name = key.dropFirst(objectsFolder.count)
        let hex = name.prefix(64)
        return hex.count == 64 && hex.allSatisfy(\.isHexDigit) && !name.contains("/") && (name.count == 64 || name.dropFirst(64).hasPrefix("."))
    }

    /// The time a history record is named by: `20261129T010439.123Z` (so that names sort as times).
    static func stamp(_ date: Date) -> String {
        let (second, _) = SigV4Signer.stamps(date)
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        return second.dropLast() + String(format: ".%03dZ", milliseconds)
    }

    static func isHistoryRecord(_ key: String) -> Bool {
        key.hasPrefix(historyFolder) && key.hasSuffix(".json") && !key.dropFirst(historyFolder.count).contains("/")
    }
}

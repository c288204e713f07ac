import Foundation
import QuakeBundleKit

/// The deltas a pointer offers, and when it names an older base instead of the current files.
///
/// A step is one published version's deltas from the version published before it (the
/// export's `deltas/<N>.mbtiles` and `deltas/<N>.sqlite`, the latter gzip-compressed). A
/// pointer offers, for each version published within the last `maxSteps` steps, the steps
/// from it to its own version. Its `quakes.sqlite` and `quakes.mbtiles` may be an older
/// version's (the base) while the steps from the base weigh at most `maxShare` of the two
/// files they stand for and number at most `maxSteps`: a new install then downloads at most
/// about 1.25 times the compressed bundle and applies at most 16 deltas. Past either bound,
/// or with no step from the version published before (it was pruned from the bundle
/// directory, or the export made no deltas), the pointer names the current files: a new base.
enum DeltaChain {
    /// Most steps an entry (and so a new install) applies.
    static let maxSteps = 16
    /// Most bytes of steps from the base, as a share of the base files they stand for.
    static let maxShare = 0.25

    /// The steps a pointer names, by the version each starts from (its files in order).
    static func steps(of pointer: PublishedPointer) -> [String: [PublishedFile]] {
        var steps: [String: [PublishedFile]] = [:]
        for entry in pointer.deltas {
            for file in entry.files {
                guard let from = file.baseVersion else { continue }
                if !(steps[from] ?? []).contains(where: { $0.key == file.key }) { steps[from, default: []].append(file) }
            }
        }
        return steps
    }

    /// For each of `versions`, the steps that lead from it to `current` (at most `maxSteps`),
    /// fewest steps first; versions with no way there are left out.
    static func entries(from versions: [String], steps: [String: [PublishedFile]], to current: String) -> [PublishedDeltas] {
        var entries: [(Int, PublishedDeltas)] = []
        for version in Set(versions) where version != current {
            var files: [PublishedFile] = [], at = version, count = 0
            while at != current, count < maxSteps, let step = steps[at], let next = step.first?.bundleVersion {
                files += step
                at = next
                count += 1
            }
            if at == current { entries.append((count, PublishedDeltas(baseVersion: version, files: files))) }
        }
        return entries.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.baseVersion < $1.1.baseVersion }.map(\.1)
    }

    /// Whether the steps of `entry` fit the bounds for a base whose two files weigh `baseBytes`.
    static func fits(_ entry: PublishedDeltas, baseBytes: Int64) -> Bool {
        let steps = Set(entry.files.compactMap(\.baseVersion)).count
        let bytes = entry.files.reduce(Int64(0)) { $0 + $1.bytes }
        return steps <= maxSteps && Double(bytes) <= maxShare * Double(baseBytes)
    }
}

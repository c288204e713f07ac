import QuakeBundleFormat

/// A delta chain of the pointer, as the steps it takes: for each step from version N to N+1,
/// the `.mbtiles` and the `.sqlite` delta files (docs/deltas.md).
struct DeltaChain {
    /// One step: the delta of each synced file, by its file name (`quakes.mbtiles`, `quakes.sqlite`).
    struct Step {
        let base: String
        let target: String
        let files: [String: PublishedFile]
    }

    let steps: [Step]

    /// The steps of `chain` from its base to `target`, followed link by link: each step must have
    /// exactly one delta of each synced file, and each lead on from the one before to `target`
    /// within `maxSteps`; otherwise the chain is refused (and the caller downloads in full).
    init(_ chain: PublishedDeltas, to target: String, maxSteps: Int) throws {
        var byBase: [String: [PublishedFile]] = [:]
        for file in chain.files { byBase[file.baseVersion ?? "", default: []].append(file) }
        var steps: [Step] = [], version = chain.baseVersion
        while version != target {
            guard steps.count < maxSteps else { throw Self.refusal(chain, "it has more than \(maxSteps) steps, or goes round") }
            guard let files = byBase.removeValue(forKey: version) else { throw Self.refusal(chain, "no step leads on from \(version)") }
            let next = Set(files.compactMap(\.bundleVersion))
            guard next.count == 1, let following = next.first else { throw Self.refusal(chain, "the step from \(version) leads to more than one version") }
            var byFile: [String: PublishedFile] = [:]
            for file in files {
                guard let synced = BundleFileName.syncedFile(ofDelta: file.name), byFile[synced] == nil else {
                    throw Self.refusal(chain, "the step from \(version) holds \(file.name), not one delta of each of \(BundleFileName.tiles) and \(BundleFileName.appDatabase)")
                }
                byFile[synced] = file
            }
            guard byFile.count == BundleFileName.synced.count else {
                throw Self.refusal(chain, "the step from \(version) lacks a delta of \(Set(BundleFileName.synced).subtracting(byFile.keys).sorted().joined(separator: ", "))")
            }
            steps.append(Step(base: version, target: following, files: byFile))
            version = following
        }
        guard byBase.isEmpty else { throw Self.refusal(chain, "it holds files of steps that do not lead to \(target)") }
        self.steps = steps
    }

    private static func refusal(_ chain: PublishedDeltas, _ why: String) -> BundleClientError {
        BundleClientError(.refused, "the delta chain from \(chain.baseVersion): \(why)")
    }
}

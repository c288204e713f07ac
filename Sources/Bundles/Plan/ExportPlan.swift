import QuakeCommon

/// The export as a plan: what it builds on (`ExportBasis`), decided once, and its stages in the
/// order they run, each declared with the products it needs and makes (see ARCHITECTURE.md,
/// "How an export runs"). Like planetiler's phases: named steps run in order, each timing itself
/// on the run's stopwatch and saying what it does on the progress line; a stage declared `beside`
/// runs on a thread of its own while the stages after it go on, until one of them needs what it makes.
struct ExportPlan {
    let basis: ExportBasis
    let stages: [ExportStage]

    /// A plan of `stages` on `basis`; refused when a stage needs a product that no stage before it
    /// makes (or that one before it released), awaits one that no other stage makes, or makes one
    /// that another stage makes too.
    init(basis: ExportBasis, stages: [ExportStage]) throws {
        var made = Set<ExportProduct>(), released = Set<ExportProduct>()
        let all = stages.flatMap(\.produces)
        for stage in stages {
            if let missing = stage.needs.first(where: { !made.contains($0) }) {
                throw QuakeBakeError("export plan: stage \(stage.name) needs \(missing.rawValue), which no stage before it makes")
            }
            if let gone = stage.needs.first(where: { released.contains($0) }) {
                throw QuakeBakeError("export plan: stage \(stage.name) needs \(gone.rawValue), which a stage before it released")
            }
            if let missing = stage.awaits.first(where: { !all.contains($0) || stage.produces.contains($0) }) {
                throw QuakeBakeError("export plan: stage \(stage.name) awaits \(missing.rawValue), which no other stage makes")
            }
            if stage.beside && !stage.releases.isEmpty {
                throw QuakeBakeError("export plan: stage \(stage.name) runs beside the others, so it cannot release what they may need")
            }
            if !stage.awaits.isEmpty && !stage.beside {
                throw QuakeBakeError("export plan: stage \(stage.name) awaits a later product, so it must run beside the stages after it")
            }
            if let twice = stage.produces.first(where: { made.contains($0) }) {
                throw QuakeBakeError("export plan: \(twice.rawValue) is made by two stages")
            }
            made.formUnion(stage.produces)
            released.formUnion(stage.releases)
        }
        self.basis = basis
        self.stages = stages
    }

    /// The plan of an export with `options` on `basis`: the copies of the previous version's files
    /// and their check beside the read when the store moved since that version (else after it, once
    /// the bundle is known to change), deltas only with `--deltas`.
    static func export(options: ExportOptions, basis: ExportBasis) throws -> ExportPlan {
        var stages: [ExportStage] = []
        if case .incremental(let previous) = basis, previous.storeMoved {
            stages += [ExportStage.copyPrevious(previous, afterRead: false), ExportStage.checkPrevious(previous)]
        }
        stages += [ExportStage.read(basis), ExportStage.unchanged]
        if case .incremental(let previous) = basis, !previous.storeMoved {
            stages += [ExportStage.copyPrevious(previous, afterRead: true), ExportStage.checkPrevious(previous)]
        }
        stages.append(.version(basis))
        if options.deltas { stages.append(.deltas) }
        stages += [ExportStage.featureIDs, .appDatabase(deltas: options.deltas), .order, .thin(deltas: options.deltas), .eventCache, .archives,
                   .publish(deltas: options.deltas)]
        return try ExportPlan(basis: basis, stages: stages)
    }

    /// Whether a stage of the plan makes `product`.
    func makes(_ product: ExportProduct) -> Bool {
        stages.contains { $0.produces.contains(product) }
    }

    /// Runs the stages in order until one finishes the export. On an error, the products not made
    /// fail, so that a stage running beside and waiting for one stops waiting; the run's scratch
    /// waits for every stage still running beside before anything is cleaned up.
    func run(_ run: ExportRun) throws -> ExportSummary {
        run.products.expect(stages)
        do {
            for stage in stages {
                let context = ExportStage.Context(run: run, stage: stage, plan: self)
                if stage.beside {
                    let work = BackgroundWork("export.\(stage.name)") {
                        do {
                            _ = try stage.body(context)
                            try context.checkMade()
                        } catch {
                            run.products.fail(stage.produces, error)
                            throw error
                        }
                    }
                    run.scratch.waitsFor(work)
                } else {
                    let next = try stage.body(context)
                    try context.checkMade()
                    run.products.release(stage.releases)
                    if case .finished(let summary) = next { return summary }
                }
            }
        } catch {
            run.products.fail(stages.flatMap(\.produces), error)
            throw error
        }
        throw QuakeBakeError("export plan: no stage finished the export")
    }
}

import Foundation
import QuakeCatalog
import QuakeCommon

/// Replay mode: serves "the catalog as of T" from the history file; T only moves forward.
///
/// The rule, per id, over the versions first seen at or before T in file order: a version
/// replaces the served one only when its `updated` is strictly greater than that of every
/// version applied before it (ties and regressions keep the served version). So the served
/// version is, among the versions with the greatest `updated`, the first seen.
///
/// On top, with a seed, simulated preferred-id changes and deletions hit events changed in
/// the step just replayed (see `Simulation`). A later real version of a renamed or deleted
/// event updates it (keeping the new preferred id, bringing a deleted event back) with
/// `updated` = max(its own `updated`, served `updated` + 1), so the change is visible to
/// `updatedafter` sync.
final class Replay {
    let history: ReplayHistory
    /// T: every version first seen at or before it has been replayed.
    private(set) var asOf: Int64
    private var simulation: Simulation?
    /// The `updated` of the last version applied per real id (the rule compares with it).
    private var lastApplied: [String: Int64] = [:]
    /// Skipped rows already reported in a step.
    private var reportedSkips = 0
    private(set) var totals = ReplayStep()

    /// Seeded, deterministic simulation of what the history lacks.
    struct Simulation: Sendable {
        var generator: SeededGenerator
        /// Chance that an event changed in a step gets a new preferred id.
        var renameRate: Double
        /// Chance that an event changed in a step is deleted.
        var deleteRate: Double
        var renamed = 0

        init(seed: UInt64, renameRate: Double, deleteRate: Double) {
            generator = SeededGenerator(seed: seed)
            self.renameRate = renameRate
            self.deleteRate = deleteRate
        }
    }

    /// Opens the history; nothing is replayed until `advance`.
    init(history: ReplayHistory, simulation: Simulation?) {
        self.history = history
        self.simulation = simulation
        asOf = .min
    }

    /// Replays every version first seen after the current T and at or before `time`, then
    /// runs the simulation on the events it changed. Returns what this step did.
    func advance(to time: Int64, catalog: inout ServedCatalog) throws(QuakeBakeError) -> ReplayStep {
        guard time >= asOf else {
            throw QuakeBakeError("replay is at \(ISOTime.format(milliseconds: asOf)); it cannot go back to \(ISOTime.format(milliseconds: time))")
        }
        var step = ReplayStep()
        var touched: [String] = []
        step.rowsRead = try history.read(through: time) { version in
            switch apply(version.event, to: &catalog) {
            case .applied(let preferredId):
                step.applied += 1
                touched.append(preferredId)
            case .tie: step.ties += 1
            case .regression: step.regressions += 1
            }
        }
        step.skippedRows = history.skippedRows - reportedSkips
        reportedSkips = history.skippedRows
        asOf = time
        if var simulation {
            simulate(&simulation, on: touched, catalog: &catalog, step: &step)
            self.simulation = simulation
        }
        totals.add(step)
        return step
    }

    private enum Outcome { case applied(String), tie, regression }

    private func apply(_ version: QuakeEvent, to catalog: inout ServedCatalog) -> Outcome {
        let served = catalog.event(withAnyId: version.id)
        if let previous = lastApplied[version.id] ?? served?.updated, version.updated <= previous {
            return version.updated == previous ? .tie : .regression
        }
        lastApplied[version.id] = version.updated
        guard let served else {
            catalog.put(version)
            return .applied(version.id)
        }
        var next = version
        next.ids = served.allIds.contains(version.id) ? served.allIds : served.allIds + [version.id]
        if served.id != version.id {
            next.id = served.id
            next.net = served.net
            next.code = served.code
            next.sources = served.sources
        }
        next.updated = max(version.updated, served.updated + 1)
        catalog.put(next)
        return .applied(next.id)
    }

    private func simulate(_ simulation: inout Simulation, on touched: [String], catalog: inout ServedCatalog, step: inout ReplayStep) {
        var seen: Set<String> = []
        for preferredId in touched where seen.insert(preferredId).inserted {
            guard let event = catalog.event(withAnyId: preferredId), !event.isDeleted else { continue }
            let draw = simulation.generator.nextUnit()
            if draw < simulation.renameRate {
                var newId: String
                repeat {
                    simulation.renamed += 1
                    newId = "ussim" + String(repeating: "0", count: max(0, 6 - String(simulation.renamed).count)) + String(simulation.renamed)
                } while catalog.preferredId(for: newId) != nil
                catalog.put(EventEdits.renamed(event, to: newId, now: asOf))
                step.renamed += 1
            } else if draw < simulation.renameRate + simulation.deleteRate {
                catalog.put(EventEdits.deleted(event, now: asOf))
                step.deleted += 1
            }
        }
    }
}

/// What one replay step (or all of them) did; `GET /admin/replay` and the advance answer show it.
struct ReplayStep: Codable, Sendable, Equatable {
    /// Rows read from the history file, skipped ones included.
    var rowsRead = 0
    /// Versions that replaced (or first introduced) an event.
    var applied = 0
    /// Versions ignored because their `updated` equals the served one's.
    var ties = 0
    /// Versions ignored because their `updated` is older than the served one's.
    var regressions = 0
    /// Rows whose times could not be parsed.
    var skippedRows = 0
    /// Simulated preferred-id changes.
    var renamed = 0
    /// Simulated deletions.
    var deleted = 0

    init() {}

    mutating func add(_ other: ReplayStep) {
        rowsRead += other.rowsRead
        applied += other.applied
        ties += other.ties
        regressions += other.regressions
        skippedRows += other.skippedRows
        renamed += other.renamed
        deleted += other.deleted
    }
}

import Foundation
import QuakeBundles
import QuakeCatalog
import QuakeCommon
import QuakeFetch
import QuakePublish
import QuakeStore

/// Where things stand in a workspace: store, archive and requests, bundle, recent runs, lock.
public struct WorkspaceStatus: Sendable, Codable {
    public var workspace: String
    public var store: StoreSummary?
    public var fetch: FetchStatus?
    public var bundle: CurrentBundle?
    /// The last publish to an object store, if any.
    public var publish: RecordedPublish?
    public var runs: [RecordedRun]
    /// Who holds the workspace lock right now, if anyone.
    public var lock: WorkspaceLock.Holder?
    /// The parts that could not be read (a damaged store, journal or run history), each with
    /// the file and why: `status` shows the rest all the same.
    public var problems: Problems

    /// What could not be read, per part.
    public struct Problems: Sendable, Codable {
        public var store: String?
        public var archive: String?
        public var runs: String?

        /// How many parts could not be read.
        public var count: Int { [store, archive, runs].compactMap { $0 }.count }
    }

    /// The store's figures.
    public struct StoreSummary: Sendable, Codable {
        public var events: Int
        public var byType: [String: Int]
        public var byStatus: [String: Int]
        public var firstTime: String?
        public var lastTime: String?
        public var minMagnitude: Double?
        public var maxMagnitude: Double?
        /// Newest `updated` in the store.
        public var highWaterMark: String?
        public var tombstones: Int
        public var rejects: Int
        public var bytes: Int
        public var lastIndexed: String?
        /// Quakes with details.
        public var details: Int
    }

    /// Reads everything `status` shows. `out` is where bundles are published (default `<workspace>/bundles`).
    /// A part that cannot be read is left out and named in `problems`.
    public static func read(_ workspace: Workspace, out: URL? = nil) -> WorkspaceStatus {
        var problems = Problems()
        func part<T>(_ file: URL, _ problem: WritableKeyPath<Problems, String?>, _ read: () throws -> T?) -> T? {
            do {
                return try read()
            } catch {
                problems[keyPath: problem] = "cannot read \(file.path): \(ErrorText.message(error))"
                return nil
            }
        }
        let store = part(workspace.storePath, \.store) { try storeSummary(workspace) }
        let fetch = part(workspace.journalPath, \.archive) { try FetchStatus.read(workspace) }
        let runs = part(workspace.runsPath, \.runs) { try RunHistory.recent(workspace) } ?? []
        let publish = part(workspace.runsPath, \.runs) { try RunHistory.lastPublish(workspace) }
        return WorkspaceStatus(workspace: workspace.root.path, store: store, fetch: fetch,
                               bundle: CurrentBundle.read(out: out ?? workspace.bundlesDirectory), publish: publish, runs: runs,
                               lock: WorkspaceLock.holder(of: workspace), problems: problems)
    }

    private static func storeSummary(_ workspace: Workspace) throws -> StoreSummary? {
        let path = workspace.storePath
        guard FileManager.default.fileExists(atPath: path.path) else { return nil }
        let store = try EventStore(opening: path)
        defer { try? store.close() }
        let s = try store.statistics()
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int) ?? 0
        return StoreSummary(events: s.events, byType: s.eventTypes, byStatus: s.statuses,
                            firstTime: s.timeRange.map { ISOTime.format(milliseconds: $0.lowerBound) },
                            lastTime: s.timeRange.map { ISOTime.format(milliseconds: $0.upperBound) },
                            minMagnitude: s.magnitudeRange?.lowerBound, maxMagnitude: s.magnitudeRange?.upperBound,
                            highWaterMark: s.highWaterMark.map { ISOTime.format(milliseconds: $0) },
                            tombstones: s.tombstones, rejects: s.rejects, bytes: bytes, lastIndexed: s.lastIndexed, details: s.details)
    }

    /// The status as JSON (`status --json`), keys sorted.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// The status for people.
    public var text: String {
        var lines = ["workspace \(workspace)"]
        if let lock {
            lines.append("  locked by `\(lock.command)` (pid \(lock.pid)) since \(lock.since)")
        }
        if let s = store {
            lines.append("store: \(Format.count(s.events, "event")), \(Format.bytes(s.bytes)), high-water mark \(s.highWaterMark ?? "none")")
            if let first = s.firstTime, let last = s.lastTime { lines.append("  origin times \(first) … \(last)") }
            if let low = s.minMagnitude, let high = s.maxMagnitude { lines.append("  magnitudes \(low) … \(high)") }
            lines.append("  by type: " + Self.counts(s.byType))
            lines.append("  by status: " + Self.counts(s.byStatus))
            lines.append("  \(Format.count(s.tombstones, "deletion")) remembered, \(Format.count(s.rejects, "reject")), \(Format.count(s.details, "quake")) with details")
        } else if let problem = problems.store {
            lines.append("store: \(problem) (`quake-bake index --rebuild` builds a fresh one from the archive)")
        } else {
            lines.append("store: none yet (run `quake-bake index` or `bake`)")
        }
        if let f = fetch {
            lines.append("archive: \(Format.count(f.pages, "page")), \(Format.count(f.archivedEvents, "event")), \(Format.bytes(f.archivedBytes)); "
                         + "fetch high-water mark \(f.highWaterMark.map { ISOTime.format(milliseconds: $0) } ?? "none")")
            if let run = f.lastRun {
                lines.append("  last fetch: run \(run.id) \(run.mode), \(run.state), started \(run.startedAt)"
                             + (run.message.map { " — \($0)" } ?? ""))
            }
            if f.detailsArchived > 0 || f.detailsWaiting > 0 {
                lines.append("  quakes' details: \(Format.count(f.detailsArchived)) archived, \(Format.count(f.detailsWaiting)) waiting for a later run")
            }
            for e in f.endpoints {
                lines.append("  \(e.endpoint): \(Format.count(e.requests, "request")) (\(e.failures) failed), mean \(e.meanMilliseconds) ms, "
                             + "p95 \(e.p95Milliseconds) ms, \(Format.bytes(e.bytes))")
            }
        } else if let problem = problems.archive {
            lines.append("archive: \(problem)")
        } else {
            lines.append("archive: nothing fetched yet")
        }
        if let b = bundle {
            let recent = b.recent.map { " (\(Format.count($0.events)) in the recent layer, from \($0.since))" } ?? ""
            lines.append("bundle: \(URL(fileURLWithPath: b.directory).lastPathComponent), \(Format.count(b.events, "event"))\(recent), "
                         + "\(Format.bytes(b.bytes)), published \(b.publishedAt) (\(Self.age(b.ageSeconds)) ago)"
                         + (b.warnings > 0 ? ", \(Format.count(b.warnings, "warning"))" : ""))
        } else {
            lines.append("bundle: none yet")
        }
        if let p = publish {
            let s = p.summary
            lines.append("published: \(s.target), version \(s.version), \(p.at): uploaded \(Format.count(s.uploadedObjects, "object")) "
                         + "(\(Format.bytes(Int(s.uploadedBytes)))), skipped \(Format.count(s.skippedObjects)) already there "
                         + "(\(Format.bytes(Int(s.skippedBytes))))" + (s.changed ? "" : ", nothing new"))
        }
        if let problem = problems.runs {
            lines.append("runs: \(problem)")
        } else if runs.isEmpty {
            lines.append("runs: none yet")
        } else {
            lines.append("recent runs:")
            for run in runs {
                var line = "  \(run.startedAt) \(run.command) \(run.outcome)"
                if run.outcome == "running" || run.outcome == "interrupted" { line += " (in \(run.stage))" }
                line += ", \(Format.count(run.eventsFetched)) fetched, \(Format.count(run.eventsChanged)) changed"
                if run.rejected > 0 { line += ", \(run.rejected) rejected" }
                if let message = run.message { line += " — \(message)" }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func counts(_ counts: [String: Int]) -> String {
        counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .map { "\($0.key.isEmpty ? "(none)" : $0.key) \(Format.count($0.value))" }.joined(separator: ", ")
    }

    private static func age(_ seconds: Int) -> String {
        switch seconds {
        case ..<120: return "\(seconds) s"
        case ..<7200: return "\(seconds / 60) min"
        case ..<172_800: return "\(seconds / 3600) h"
        default: return "\(seconds / 86_400) days"
        }
    }
}

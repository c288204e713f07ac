import ArgumentParser
import Foundation
import QuakeCommon
import QuakeOperations
import QuakeStore

/// `quake-bake index`.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build or update the SpatiaLite store from the archive and ComCat files.",
        discussion: """
        Reads every archived page not indexed yet (in arrival order), then each --from \
        file, into <workspace>/store/quakes.sqlite, and the archived quake details into \
        its details table. Newest `updated` wins; an equal \
        `updated` changes nothing. Each source is one transaction; a source already \
        indexed (same content) is skipped. Items that cannot be stored go to the \
        store's `rejects` table with the reason.

        Exit status: 0 done; 1 a source could not be read at all (the others are \
        indexed) or the store failed; 65 a source was damaged as a whole (broken or \
        truncated JSON or gzip, not a catalog; the events read before the damage are \
        indexed); 75 the workspace \
        is locked by another run. Exit 65 too when more items than --max-rejects were \
        refused, or every item of a file.
        """)

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    @Option(name: .customLong("from"), help: ArgumentHelp(
        "A ComCat file to index too: GeoJSON (FeatureCollection, Feature, one Feature per line, or a text sequence) or ComCat CSV, gzip or plain. Repeatable.",
        valueName: "file"))
    var files: [String] = []

    @Option(name: .customLong("max-file-size"), help: ArgumentHelp(
        "Largest --from file, and the most its gzip may inflate to, in MB (default 4096; gzip may also inflate to at most 50 times its size).",
        valueName: "MB"))
    var maxFileSize = InputFile.defaultMaxBytes >> 20

    @OptionGroup var maxRejects: MaxRejectsFlag

    func validate() throws {
        if maxFileSize < 1 || maxFileSize > 1 << 20 { throw ValidationError("--max-file-size must be from 1 to 1048576 (MB).") }
    }

    @Flag(help: "Build a fresh store from the whole archive (and the --from files) and swap it in atomically.")
    var rebuild = false

    func run() async throws {
        let logger = output.logger(for: "index")
        try await Reporting.run(logger, command: "index") {
            let run = try RunOptions(common, maxRejects)
            let workspace = run.resolvedWorkspace
            let lock = try WorkspaceLock(workspace: workspace, command: "quake-bake index")
            defer { lock.release() }
            let pages = try ArchiveSources.all(in: workspace)
            let details = try ArchiveSources.details(in: workspace)
            let sources = pages + files.map { IndexSource.file(URL(fileURLWithPath: $0), maxBytes: maxFileSize << 20) }
            if rebuild && sources.isEmpty {
                throw QuakeBakeError("nothing to rebuild from: the archive of \(workspace.root.path) is empty and no --from file was given; the store is left as it is",
                                     exitStatus: .usage)
            }
            _ = try await RecordedStage.run("index", workspace: workspace, facts: {
                RecordedStage.Facts(changed: $0.counts.changed + $0.details.changed > 0, eventsChanged: $0.counts.changed, rejected: $0.counts.rejected)
            }) {
                let summary = rebuild
                    ? try Indexer.rebuild(sources, details: details, store: workspace.storePath, progress: output.progress, logger: logger)
                    : try Indexer.index(sources, details: details, store: workspace.storePath, progress: output.progress, logger: logger)
                if !summary.unreadable.isEmpty {
                    // Each was named above as it was met.
                    let rest = summary.unreadable.count == summary.sources.count ? "nothing was indexed" : "the others are indexed"
                    throw QuakeBakeError("\(Self.some(summary.unreadable.count, of: summary.sources.count, "source")) could not be read (named above); \(rest)")
                }
                if !summary.damaged.isEmpty {
                    let one = summary.damaged.count == 1
                    let kept = summary.sources.contains { $0.problem != nil && $0.events > 0 }
                        ? "the events read before the damage are indexed" : "no event could be read from \(one ? "it" : "them")"
                    throw QuakeBakeError("\(Self.some(summary.damaged.count, of: summary.sources.count, "source")) \(one ? "was" : "were") damaged (\(kept); see the rejects table): \(summary.damaged.joined(separator: "; "))",
                                         exitStatus: .dataError)
                }
                if let source = summary.allRefused.first {
                    let every = source.counts.rejected == 1 ? "the only item" : "every one of the \(Format.count(source.counts.rejected, "item"))"
                    throw QuakeBakeError("\(every) of \(source.name) was refused (see the rejects table)",
                                         exitStatus: .dataError)
                }
                let rejected = summary.counts.rejected - summary.damaged.count
                if rejected > run.maxRejects {
                    throw QuakeBakeError("\(Format.count(rejected, "item")) refused, more than --max-rejects \(run.maxRejects); the good ones are indexed (see the rejects table)",
                                         exitStatus: .dataError)
                }
                return summary
            }
        }
    }

    /// How many of the run's sources: "the only source" (1 of 1), "1 of 3 sources", "2 of 3 sources".
    private static func some(_ count: Int, of total: Int, _ noun: String) -> String {
        total == 1 ? "the only \(noun)" : "\(count) of \(Format.count(total, noun))"
    }
}

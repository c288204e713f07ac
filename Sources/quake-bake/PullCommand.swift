import ArgumentParser
import Foundation
import Logging
import QuakeBundleKit
import QuakeCommon

/// `quake-bake pull`: QuakeBundleKit's `BundleClient` from the command line.
struct PullCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Keep a local copy of a published bundle current, as an app does.",
        discussion: """
        Reads the publication's current.json at --from (an http://, https:// or file:// URL, \
        or a directory) and brings --to DIR/current to its version: by the deltas from the \
        version held when the publication has them, else by downloading the version whole. \
        Every download is checked (size, sha256) and resumes where a killed or cut one \
        stopped; the new version is switched in with one rename, so DIR/current always holds \
        a whole version. A delta that fails a check is refused with the reason and the version \
        is downloaded whole instead. See docs/guide/pull.md and docs/bundlekit.md.

        Exit codes: 0 current or updated; 1 refused (the reason is printed: a malformed or \
        hostile publication, a file that fails its checks); 64 bad command line; 75 the source \
        is unreachable or another pull runs on DIR (try again later: downloads resume).
        """)

    @Option(help: ArgumentHelp("The publication: the URL (or directory) holding current.json.", valueName: "url"))
    var from: String

    @Option(help: ArgumentHelp("The local directory; the bundle is at DIR/current.", valueName: "dir"))
    var to: String

    @Flag(help: "Keep every published file (quakes.pmtiles, the GeoJSON zooms, recent.geojson, preview.html too), not only those an app reads.")
    var allFiles = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        _ = try source()
    }

    func run() async throws {
        let logger = output.logger(for: "pull")
        let progress = output.progress
        try await Reporting.run(logger, command: "pull") {
            let directory = URL(fileURLWithPath: to)
            let client = BundleClient(source: try source(), directory: directory, files: allFiles ? .all : .app) { event in
                switch event {
                case .downloading(let name, let done, let total):
                    progress.update(ProgressSnapshot(stage: "pull", done: Int(done), total: Int(total), unit: "bytes", detail: name))
                case .applying(let base, let target):
                    logger.debug("applying the deltas from \(base) to \(target)")
                case .note(let text):
                    logger.warning("\(text)")
                }
            }
            let update: BundleUpdate
            do {
                update = try await client.update()
                progress.finish()
            } catch let error as BundleClientError {
                progress.finish()
                throw QuakeBakeError(Self.kind(of: error), error.message)
            }
            let current = client.currentDirectory.path
            let downloaded = Format.bytes(Int(update.downloadedBytes))
            switch update.way {
            case .alreadyCurrent:
                logger.info("\(current): version \(update.version), already current (\(downloaded) read)")
            case .deltas:
                logger.info("\(current): version \(update.previousVersion ?? "none") → \(update.version) by deltas, \(downloaded) downloaded")
            case .full:
                logger.info("\(current): version \(update.previousVersion ?? "none") → \(update.version) downloaded whole, \(downloaded)")
            }
        }
    }

    /// `--from` as a URL: http(s) and file URLs as given, anything without a scheme as a directory.
    private func source() throws -> URL {
        guard from.contains("://") else { return URL(fileURLWithPath: from, isDirectory: true) }
        guard let url = URL(string: from), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme), url.host != nil || scheme == "file" else {
            throw ValidationError("--from must be an http://, https:// or file:// URL or a directory (an s3:// bucket: give its public http(s) URL)")
        }
        return url
    }

    /// The kind of failure a client's error is, as the rest of quake-bake says it (and so its exit status:
    /// 75 when the next run may do better, 1 otherwise).
    private static func kind(of error: BundleClientError) -> QuakeBakeError.Kind {
        switch error.kind {
        case .busy: .locked
        case .unreachable: .unavailable
        case .refused: .refused
        case .local: .failure
        }
    }
}

import ArgumentParser
import Foundation
import QuakeCommon
import QuakeServe

/// `quake-bake serve`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the current bundle over HTTP, to look at it in a browser at every zoom.",
        discussion: """
        Prints the page's URL on stdout, then serves until stopped (Ctrl-C): the map page \
        (MapLibre GL JS, served from the binary: nothing is fetched from elsewhere), the \
        bundle's style.json pointed at this server, its tiles at /tiles/{z}/{x}/{y}.pbf \
        (gzip, Content-Encoding: gzip, ETag per bundle version), and manifest.json, \
        timeline.json, preview.html and the archives. Anything else is 404. The bundle is \
        looked up for every request, so a cron export that switches `current` shows at the \
        next reload. preview.html needs no server; this is for the zooms it cannot carry.
        """)

    @Option(help: ArgumentHelp("A bundle directory to serve (default: <workspace>/bundles/current).", valueName: "dir"))
    var bundle: String?

    @Option(help: "TCP port (0 takes a free one).")
    var port: UInt16 = 8080

    @Option(help: "Address to listen on: loopback unless you mean to share the map.")
    var host = "127.0.0.1"

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let logger = common.logger(for: "serve")
        try await Reporting.run(logger, command: "serve") {
            let directory = bundle.map { URL(fileURLWithPath: $0) } ?? common.resolvedWorkspace.bundlesDirectory.appendingPathComponent("current")
            let locate: @Sendable () throws -> URL = {
                let resolved = directory.resolvingSymlinksInPath()
                guard FileManager.default.fileExists(atPath: resolved.appendingPathComponent("style.json").path),
                      FileManager.default.fileExists(atPath: resolved.appendingPathComponent("quakes.mbtiles").path) else {
                    throw QuakeBakeError("no bundle with style.json and quakes.mbtiles at \(directory.path): run `quake-bake export` first", exitStatus: .usage)
                }
                return resolved
            }
            _ = try locate()
            let server = try BundleServer(host: host, port: port, logger: logger, locate: locate)
            Interruption.enter(stage: "serve", resumable: false)
            try await server.run { url in
                FileHandle.standardOutput.write(Data("\(url.absoluteString)\n".utf8))
                logger.info("serving \(directory.path) at \(url.absoluteString)")
            }
        }
    }
}

import ArgumentParser
import Foundation
import QuakeBundleFormat
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

        Limits: a request line over 8 KB is 414, a header line over 8 KB, more than 100 \
        headers or a head over 32 KB is 431; a request head must arrive within --timeout \
        seconds (408), and an idle connection is closed then; at --max-connections, the \
        connection silent longest is closed for a new one. Only the style, the tiles and \
        recent.geojson carry CORS headers (Access-Control-Allow-Origin: *), and only for a \
        request with an Origin header.
        """)

    @Option(help: ArgumentHelp("A bundle directory to serve (default: <workspace>/bundles/current).", valueName: "dir"))
    var bundle: String?

    @Option(help: "TCP port (0 takes a free one).")
    var port: UInt16 = 8080

    @Option(help: ArgumentHelp("Address or name to listen on: 127.0.0.1, ::1, localhost; 0.0.0.0 or :: for every interface (a warning: anyone who can reach this machine can open the map and download the bundle).",
                               valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Seconds a connection has to send a request once the server waits for one (default 10).", valueName: "s"))
    var timeout = 10

    @Option(help: ArgumentHelp("Connections held at once (default: what the open-file limit leaves room for, at most 1,024).", valueName: "n"))
    var maxConnections: Int?

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let logger = output.logger(for: "serve")
        try await Reporting.run(logger, command: "serve") {
            let directory = try bundle.map { URL(fileURLWithPath: $0) } ?? common.resolvedWorkspace().bundlesDirectory.appendingPathComponent("current")
            let locate: @Sendable () throws -> URL = {
                let resolved = directory.resolvingSymlinksInPath()
                guard FileManager.default.fileExists(atPath: resolved.appendingPathComponent(BundleFileName.style).path),
                      FileManager.default.fileExists(atPath: resolved.appendingPathComponent(BundleFileName.tiles).path) else {
                    throw QuakeBakeError("no bundle with style.json and quakes.mbtiles at \(directory.path): run `quake-bake export` first", exitStatus: .usage)
                }
                return resolved
            }
            _ = try locate()
            var limits = ServeLimits()
            limits.requestSeconds = timeout
            limits.maxConnections = maxConnections
            let server = try BundleServer(address: try ListenAddress(host: host), port: Int(port), limits: limits, logger: logger, locate: locate)
            Interruption.enter(stage: "serve", resumable: false)
            try await server.run { url in
                FileHandle.standardOutput.write(Data("\(url.absoluteString)\n".utf8))
                logger.info("serving \(directory.path) at \(url.absoluteString)")
            }
        }
    }
}

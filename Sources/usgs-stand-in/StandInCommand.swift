import ArgumentParser
import Foundation
import QuakeCatalog
import QuakeCommon
import USGSStandIn

/// `usgs-stand-in`: parses the options, starts the server, prints where it listens.
@main
struct StandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usgs-stand-in",
        abstract: "A local stand-in for the USGS FDSN event service (tests and demos).",
        discussion: """
        Serves ComCat files over HTTP on 127.0.0.1 as https://earthquake.usgs.gov/fdsnws/event/1/
        does: query, count, version, application.json, the 20,000 cap, the service's error texts;
        one event's detail answer (query?eventid=) and its product files (/product/...), from
        --details for recorded quakes.
        An admin interface under /admin/ changes the catalog, the clock and the faults while it
        runs; see docs/stand-in.md. Once listening it prints exactly one line to stdout:
          usgs-stand-in listening on http://127.0.0.1:PORT/fdsnws/event/1/
        Every request is logged on stderr.

        Fault specs (--fault, repeatable): KIND[=ARG][,KEY=VALUE]…
          kinds: 503, 429[=RETRY_AFTER], stall[=SECONDS], disconnect, truncate,
                 error200[=STATUS], proxy[=STATUS], wrongcount[=DELTA], damage, outside
          hostile (a client must cut them off by its own limits):
                 endless, big[=MB], drip[=BYTES_PER_S], gzipbomb[=MB], badcount=TEXT, badcap=TEXT
          lying:  short[=N] (pages without their last N features, default half), feature, sameid, bigheader[=KB],
                  redirect[=http://HOST:PORT] (without it: to itself, a loop)
          keys:  next=N (default next=1), every=K, rate=P, seed=S, after=M, on=query|count|detail|product|any
                 (detail: one event's detail answer, query?eventid=; product: a product file, /product/...)
          e.g.   --fault 503,next=2   --fault 429=5,every=3,on=query   --fault disconnect,rate=0.1,seed=7
        """
    )

    @Option(name: .customLong("catalog"), help: ArgumentHelp("A ComCat file to serve (GeoJSON or CSV, gzip or plain); repeatable. On duplicate ids the newest `updated` wins.", valueName: "file"))
    var catalogs: [String] = []

    @Option(help: "TCP port on 127.0.0.1 (0 takes a free one).")
    var port: UInt16 = 0

    @Option(help: "The search limit: a query matching more fails, count reports it as maxAllowed.")
    var cap: Int = 20_000

    @Option(help: ArgumentHelp("Fix the service clock at this ISO-8601 time (default: the wall clock).", valueName: "time"))
    var now: String?

    @Option(name: .customLong("fault"), help: ArgumentHelp("A fault rule (syntax above); repeatable.", valueName: "spec"))
    var faults: [String] = []

    @Option(help: ArgumentHelp("Replay this history file (first_seen, source_repo, then the ComCat columns): serve the catalog as of T.", valueName: "file"))
    var replay: String?

    @Option(name: .customLong("replay-start"), help: ArgumentHelp("T at startup (default: the first first_seen).", valueName: "time"))
    var replayStart: String?

    @Option(help: "Seed of the replay's simulated preferred-id changes and deletions.")
    var seed: UInt64 = 1

    @Option(name: .customLong("rename-rate"), help: "Chance that an event changed in a replay step gets a new preferred id (0…1).")
    var renameRate: Double = 0

    @Option(name: .customLong("delete-rate"), help: "Chance that an event changed in a replay step is deleted (0…1).")
    var deleteRate: Double = 0

    @Option(help: ArgumentHelp("Recorded USGS detail answers and product files to serve (events/ID.geojson[.gz], product/PATH[.gz]; data/usgs/detail).", valueName: "dir"))
    var details: String?

    @Flag(help: "Log warnings only, not every request.")
    var quiet = false

    @Option(name: .customLong("log-format"), help: "Log lines as text or json.")
    var logFormat: String = "text"

    @Flag(name: .customLong("stop-on-stdin-close"), help: "Exit when standard input closes (so a parent that dies takes the stand-in with it).")
    var stopOnStdinClose = false

    func validate() throws {
        if let now, ISOTime.parse(now) == nil { throw ValidationError("--now \"\(now)\" is not an ISO-8601 time") }
        if let replayStart, ISOTime.parse(replayStart) == nil { throw ValidationError("--replay-start \"\(replayStart)\" is not an ISO-8601 time") }
        if replayStart != nil && replay == nil { throw ValidationError("--replay-start needs --replay") }
        for (name, rate) in [("--rename-rate", renameRate), ("--delete-rate", deleteRate)] where !(0...1).contains(rate) {
            throw ValidationError("\(name) must be in 0…1")
        }
        if renameRate + deleteRate > 1 { throw ValidationError("--rename-rate plus --delete-rate must not exceed 1") }
        if LogFormat(rawValue: logFormat) == nil { throw ValidationError("--log-format must be text or json") }
    }

    func run() async throws {
        LogSetup.bootstrap(format: LogFormat(rawValue: logFormat) ?? .text, level: quiet ? .warning : .info)
        let replayOptions = replay.map {
            StandInConfiguration.ReplayOptions(file: URL(fileURLWithPath: $0), start: replayStart.flatMap(ISOTime.parse),
                                               seed: seed, renameRate: renameRate, deleteRate: deleteRate)
        }
        let configuration = StandInConfiguration(catalogs: catalogs.map { URL(fileURLWithPath: $0) }, port: port, cap: cap,
                                                 now: now.flatMap(ISOTime.parse), faults: faults, replay: replayOptions,
                                                 details: details.map { URL(fileURLWithPath: $0) })
        let server: StandInServer
        do {
            server = try StandInServer(configuration)
        } catch let error as QuakeBakeError {
            StandardError.write("usgs-stand-in: \(error)\n")
            throw ExitCode(error.exitStatus.rawValue)
        }
        if stopOnStdinClose { Self.exitWhenStandardInputCloses() }
        try await server.run { url in
            FileHandle.standardOutput.write(Data("usgs-stand-in listening on \(url.absoluteString)\n".utf8))
        }
    }

    /// Reads standard input on a thread of its own and exits at its end.
    private static func exitWhenStandardInputCloses() {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while read(STDIN_FILENO, &buffer, buffer.count) > 0 {}
            Foundation.exit(0)
        }
    }
}

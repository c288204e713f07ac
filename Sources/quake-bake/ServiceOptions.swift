import ArgumentParser
import Foundation
import QuakeCommon
import QuakeFetch

/// How to talk to the FDSN event service, shared by `fetch` and `bake`.
struct ServiceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The FDSN event service.", valueName: "url"))
    var service = "https://earthquake.usgs.gov/fdsnws/event/1/"

    @Flag(help: "Fetch only what changed since the last completed fetch of the same selection (the default once there is one).")
    var incremental = false

    @Flag(help: "Fetch the whole selection even if an earlier fetch completed.")
    var full = false

    @Option(help: ArgumentHelp("How far before the high-water mark an incremental fetch starts: 90s, 10m, 2h, 1d.", valueName: "duration"))
    var overlap = "10m"

    @Option(help: "Requests in flight at once.")
    var concurrency = 2

    @Option(help: ArgumentHelp("Requests allowed per 5 minutes.", valueName: "n"))
    var budget = 400

    @Option(help: ArgumentHelp("Seconds allowed to connect and receive response headers.", valueName: "s"))
    var connectTimeout: Double = 30

    @Option(help: ArgumentHelp("Seconds of silence allowed while a response arrives.", valueName: "s"))
    var readTimeout: Double = 120

    @Option(help: ArgumentHelp("Attempts per request before a window is split or the run gives up.", valueName: "n"))
    var maxAttempts = 6

    @Option(help: ArgumentHelp("Base of the exponential backoff between attempts, seconds.", valueName: "s"))
    var retryDelay: Double = 1

    func validate() throws {
        if incremental && full { throw ValidationError("--incremental and --full cannot be used together.") }
        guard let url = URL(string: service), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--service \"\(service)\" is not an http(s) URL.")
        }
        if DurationText.seconds(overlap) == nil { throw ValidationError("--overlap \"\(overlap)\" is not a duration (e.g. 10m, 2h).") }
        if concurrency < 1 || budget < 1 || maxAttempts < 1 { throw ValidationError("--concurrency, --budget and --max-attempts must be at least 1.") }
        if connectTimeout <= 0 || readTimeout <= 0 || retryDelay < 0 { throw ValidationError("timeouts must be positive.") }
    }

    /// The fetch options these flags describe.
    var options: FetchOptions {
        var options = FetchOptions()
        let base = service.hasSuffix("/") ? service : service + "/"
        options.service = URL(string: base)!
        options.mode = incremental ? .incremental : (full ? .full : .automatic)
        options.overlap = Int64((DurationText.seconds(overlap) ?? 600) * 1000)
        options.concurrency = concurrency
        options.requestBudget = budget
        options.connectTimeout = connectTimeout
        options.readTimeout = readTimeout
        options.maxAttempts = maxAttempts
        options.retryBaseDelay = retryDelay
        return options
    }
}

import ArgumentParser
import Foundation
import QuakeCommon
import QuakeFetch

extension DetailPolicy: ExpressibleByArgument {}

/// How to talk to the FDSN event service, shared by `fetch` and `bake`.
/// Only the flags given change anything, so `bake --config` can supply the rest.
struct ServiceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The FDSN event service (default: https://earthquake.usgs.gov/fdsnws/event/1/).", valueName: "url"))
    var service: String?

    @Flag(help: "Fetch only what changed since the last completed fetch of the same selection (the default once there is one).")
    var incremental = false

    @Flag(help: "Fetch the whole selection even if an earlier fetch completed.")
    var full = false

    @Option(help: ArgumentHelp("How far before the high-water mark an incremental fetch starts: 90s, 10m, 2h, 1d (default 10m).", valueName: "duration"))
    var overlap: String?

    @Option(help: ArgumentHelp("Requests in flight at once (default 2, at most 16).", valueName: "n"))
    var concurrency: Int?

    @Option(help: ArgumentHelp("Requests allowed per 5 minutes (default 400).", valueName: "n"))
    var budget: Int?

    @Option(help: ArgumentHelp("Seconds allowed to connect and receive response headers (default 30).", valueName: "s"))
    var connectTimeout: Double?

    @Option(help: ArgumentHelp("Seconds of silence allowed while a response arrives (default 120).", valueName: "s"))
    var readTimeout: Double?

    @Option(help: ArgumentHelp("Seconds one request may take in all, headers and body (default 60).", valueName: "s"))
    var requestDeadline: Double?

    @Option(help: ArgumentHelp("Largest answer accepted, in MB, as received and once decompressed (default 100, at most 4096; a USGS page of 20,000 events is 15–20 MB).", valueName: "MB"))
    var maxBody: Int?

    @Option(help: ArgumentHelp("Longest Retry-After obeyed, seconds; a service asking for longer is given up on, exit 75 (default 600).", valueName: "s"))
    var maxRetryAfter: Double?

    @Option(help: ArgumentHelp("Seconds one request keeps trying: no attempt starts later than this after the first (default 120).", valueName: "s"))
    var giveUpAfter: Double?

    @Option(help: ArgumentHelp("Attempts per request before the run gives up, exit 75 (default 6).", valueName: "n"))
    var maxAttempts: Int?

    @Option(help: ArgumentHelp("Base of the exponential backoff between attempts, seconds (default 1).", valueName: "s"))
    var retryDelay: Double?

    @Option(help: ArgumentHelp("Which quakes to fetch details of (ShakeMap, PAGER, DYFI, moment tensor, cities, tectonic summary): significant (the default: sig ≥ 600 or a PAGER alert, as USGS's significant feed), all or none.", valueName: "which"))
    var details: DetailPolicy?

    @Option(help: ArgumentHelp("Details fetched per run at most, biggest quakes first; the rest in later runs (default 200).", valueName: "n"))
    var detailsPerRun: Int?

    @Option(help: ArgumentHelp("Largest product file of a detail accepted, in MB, as received and once decompressed (default 8).", valueName: "MB"))
    var maxContent: Int?

    func validate() throws {
        if incremental && full { throw ValidationError("--incremental and --full cannot be used together.") }
        if let service, serviceURL(service) == nil { throw ValidationError("--service \"\(service)\" is not an http(s) URL.") }
        if let overlap, DurationText.seconds(overlap) == nil { throw ValidationError("--overlap \"\(overlap)\" is not a duration (e.g. 10m, 2h).") }
        if let overlap, let seconds = DurationText.seconds(overlap), !FetchOptions.Limits.overlap.contains(seconds) {
            throw ValidationError("--overlap \"\(overlap)\" is longer than a year.")
        }
        typealias Limits = FetchOptions.Limits
        for (flag, value, range) in [("--concurrency", concurrency, Limits.concurrency), ("--budget", budget, Limits.budget),
                                     ("--max-attempts", maxAttempts, Limits.attempts), ("--max-body", maxBody, Limits.bodyMegabytes),
                                     ("--details-per-run", detailsPerRun, Limits.detailsPerRun), ("--max-content", maxContent, Limits.bodyMegabytes)] {
            if let value, !range.contains(value) { throw ValidationError("\(flag) \(Limits.describe(range)), not \(value).") }
        }
        for (flag, value, range) in [("--connect-timeout", connectTimeout, Limits.seconds), ("--read-timeout", readTimeout, Limits.seconds),
                                     ("--request-deadline", requestDeadline, Limits.seconds), ("--max-retry-after", maxRetryAfter, Limits.seconds),
                                     ("--give-up-after", giveUpAfter, Limits.seconds), ("--retry-delay", retryDelay, Limits.retryDelay)] {
            if let value, !range.contains(value) { throw ValidationError("\(flag) \(Limits.describe(range)) seconds, not \(value).") }
        }
    }

    /// Sets the parts of `options` these flags give.
    func apply(to options: inout FetchOptions) {
        if let service, let url = serviceURL(service) { options.service = url }
        if incremental { options.mode = .incremental }
        if full { options.mode = .full }
        if let overlap, let seconds = DurationText.seconds(overlap) { options.overlap = Int64(seconds * 1000) }
        if let concurrency { options.concurrency = concurrency }
        if let budget { options.requestBudget = budget }
        if let connectTimeout { options.connectTimeout = connectTimeout }
        if let readTimeout { options.readTimeout = readTimeout }
        if let requestDeadline { options.requestDeadline = requestDeadline }
        if let maxBody { options.maxBodyBytes = maxBody << 20 }
        if let maxRetryAfter { options.maxRetryAfter = maxRetryAfter }
        if let giveUpAfter { options.giveUpAfter = giveUpAfter }
        if let maxAttempts { options.maxAttempts = maxAttempts }
        if let retryDelay { options.retryBaseDelay = retryDelay }
        if let details { options.details = details }
        if let detailsPerRun { options.detailsPerRun = detailsPerRun }
        if let maxContent { options.maxContentBytes = maxContent << 20 }
    }

    /// The service URL with its trailing slash (the service answers 301 without it).
    private func serviceURL(_ text: String) -> URL? {
        guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            return nil
        }
        return url
    }
}

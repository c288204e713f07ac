import ArgumentParser
import QuakeCommon
import QuakeFetch

/// How to talk to the FDSN event service, shared by `fetch` and `bake`: a flag for each
/// `FetchOption`, named and explained by its declaration, and the fetch's mode.
struct FetchFlags: DeclaredFlags {
    @Option(FetchOption.service) var service: String?

    @Flag(help: "Fetch only what changed since the last completed fetch of the same selection (the default once there is one).")
    var incremental = false

    @Flag(help: "Fetch the whole selection even if an earlier fetch completed.")
    var full = false

    @Option(FetchOption.overlap) var overlap: String?
    @Option(FetchOption.concurrency) var concurrency: String?
    @Option(FetchOption.budget) var budget: String?
    @Option(FetchOption.connectTimeout) var connectTimeout: String?
    @Option(FetchOption.readTimeout) var readTimeout: String?
    @Option(FetchOption.requestDeadline) var requestDeadline: String?
    @Option(FetchOption.maxBody) var maxBody: String?
    @Option(FetchOption.maxRetryAfter) var maxRetryAfter: String?
    @Option(FetchOption.giveUpAfter) var giveUpAfter: String?
    @Option(FetchOption.maxAttempts) var maxAttempts: String?
    @Option(FetchOption.retryDelay) var retryDelay: String?
    @Option(FetchOption.details) var details: String?
    @Option(FetchOption.detailsPerRun) var detailsPerRun: String?
    @Option(FetchOption.maxContent) var maxContent: String?

    func validate() throws {
        if incremental && full { throw ValidationError("--incremental and --full cannot be used together.") }
        var options = FetchOptions()
        do { try apply(to: &options) } catch let error as QuakeBakeError { throw ValidationError(error.description) }
    }

    func apply(to options: inout FetchOptions) throws {
        if incremental { options.mode = .incremental }
        if full { options.mode = .full }
        try FetchOption.apply([
            (.service, service), (.overlap, overlap), (.concurrency, concurrency), (.budget, budget), (.connectTimeout, connectTimeout),
            (.readTimeout, readTimeout), (.requestDeadline, requestDeadline), (.maxBody, maxBody), (.maxRetryAfter, maxRetryAfter),
            (.giveUpAfter, giveUpAfter), (.maxAttempts, maxAttempts), (.retryDelay, retryDelay), (.details, details),
            (.detailsPerRun, detailsPerRun), (.maxContent, maxContent),
        ], to: &options)
    }
}

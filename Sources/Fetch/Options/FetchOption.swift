import Foundation
import QuakeCommon

/// One option of how `fetch` talks to the service (`--concurrency`; `fetch: concurrency:`),
/// declared once in `FetchOption.all`: `fetch`'s and `bake`'s flags and the configuration's
/// `fetch:` section are made from the declarations, the defaults are `FetchOptions()`'s.
public typealias FetchOption = OptionDeclaration<FetchOptions>

extension FetchOptions: DeclaredOptions {
    /// `overlap` in seconds, as people give it.
    public var overlapSeconds: Double {
        get { Double(overlap) / 1000 }
        set { overlap = Int64(newValue * 1000) }
    }

    /// `maxBodyBytes` in MB, as people give it.
    public var maxBodyMegabytes: Int {
        get { maxBodyBytes >> 20 }
        set { maxBodyBytes = newValue << 20 }
    }

    /// `maxContentBytes` in MB, as people give it.
    public var maxContentMegabytes: Int {
        get { maxContentBytes >> 20 }
        set { maxContentBytes = newValue << 20 }
    }
}

extension OptionDeclaration where Options == FetchOptions {
    /// Every option of how to fetch, in the order `--help` lists them.
    public static let all: [FetchOption] = [
        service, overlap, concurrency, budget, connectTimeout, readTimeout, requestDeadline, maxBody, maxRetryAfter,
        giveUpAfter, maxAttempts, retryDelay, details, detailsPerRun, maxContent,
    ]

    private typealias Limits = FetchOptions.Limits

    public static let service = FetchOption(
        flag: "service", key: "service", at: \.service, valueName: "url", summary: "The FDSN event service (default: {default}).",
        parse: serviceURL, text: { $0.absoluteString })

    public static let overlap = FetchOption(
        flag: "overlap", key: "overlap", at: \.overlapSeconds, valueName: "duration",
        summary: "How far before the high-water mark an incremental fetch starts: 90s, 10m, 2h, 1d",
        parse: OptionText.duration,
        check: { Limits.overlap.contains($0) ? nil : "is longer than a year" }, text: duration)

    public static let concurrency = FetchOption(
        flag: "concurrency", key: "concurrency", at: \.concurrency, valueName: "n",
        summary: "Requests in flight at once (default {default}, at most \(Limits.concurrency.upperBound)).",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.concurrency, $0) }, text: String.init)

    public static let budget = FetchOption(
        flag: "budget", key: "budget", at: \.requestBudget, valueName: "n",
        summary: "Requests allowed per \(Format.number(FetchOptions().budgetWindow / 60)) minutes",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.budget, $0) }, text: String.init)

    public static let connectTimeout = seconds(
        "connect-timeout", key: "connect_timeout", at: \.connectTimeout, "Seconds allowed to connect and receive response headers")

    public static let readTimeout = seconds(
        "read-timeout", key: "read_timeout", at: \.readTimeout, "Seconds of silence allowed while a response arrives")

    public static let requestDeadline = seconds(
        "request-deadline", key: "request_deadline", at: \.requestDeadline, "Seconds one request may take in all, headers and body")

    public static let maxBody = FetchOption(
        flag: "max-body", key: "max_body_mb", at: \.maxBodyMegabytes, valueName: "MB",
        summary: "Largest answer accepted, in MB, as received and once decompressed (default {default}, at most "
            + "\(Limits.bodyMegabytes.upperBound); a USGS page of 20,000 events is 15–20 MB).",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.bodyMegabytes, $0) }, text: String.init)

    public static let maxRetryAfter = seconds(
        "max-retry-after", key: "max_retry_after", at: \.maxRetryAfter,
        "Longest Retry-After obeyed, seconds; a service asking for longer is given up on, exit 75")

    public static let giveUpAfter = seconds(
        "give-up-after", key: "give_up_after", at: \.giveUpAfter, "Seconds one request keeps trying: no attempt starts later than this after the first")

    public static let maxAttempts = FetchOption(
        flag: "max-attempts", key: "max_attempts", at: \.maxAttempts, valueName: "n", summary: "Attempts per request before the run gives up, exit 75",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.attempts, $0) }, text: String.init)

    public static let retryDelay = seconds(
        "retry-delay", key: "retry_delay", at: \.retryBaseDelay, "Base of the exponential backoff between attempts, seconds", in: Limits.retryDelay)

    public static let details = FetchOption(
        flag: "details", key: "details", at: \.details, valueName: "which",
        summary: "Which quakes to fetch details of (ShakeMap, PAGER, DYFI, moment tensor, cities, tectonic summary): significant (the default: "
            + "sig ≥ 600 or a PAGER alert, as USGS's significant feed), all or none.",
        choices: DetailPolicy.allCases.map(\.rawValue), parse: OptionText.choice, text: nil)

    public static let detailsPerRun = FetchOption(
        flag: "details-per-run", key: "details_per_run", at: \.detailsPerRun, valueName: "n",
        summary: "Details fetched per run at most, biggest quakes first; the rest in later runs",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.detailsPerRun, $0) }, text: String.init)

    public static let maxContent = FetchOption(
        flag: "max-content", key: "max_content_mb", at: \.maxContentMegabytes, valueName: "MB",
        summary: "Largest product file of a detail accepted, in MB, as received and once decompressed",
        parse: OptionText.wholeNumber, check: { OptionText.within(Limits.bodyMegabytes, $0) }, text: String.init)

    /// An option of seconds (`90`, or a duration: `2m`) within `range`.
    private static func seconds(_ flag: String, key: String, at path: WritableKeyPath<FetchOptions, TimeInterval> & Sendable, _ summary: String,
                                in range: ClosedRange<Double> = Limits.seconds) -> FetchOption {
        FetchOption(flag: flag, key: key, at: path, valueName: "s", summary: summary,
                    parse: OptionText.seconds, check: { OptionText.within(range, $0, unit: "seconds") }, text: Format.number)
    }

    /// The service URL with its trailing slash (the service answers 301 without it).
    private static func serviceURL(_ text: String) throws -> URL {
        guard let url = URL(string: text.hasSuffix("/") ? text : text + "/"), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw OptionText.problem("\"\(text)\" is not an http(s) URL")
        }
        return url
    }

    /// `600` → `10m`: a duration as the help says it.
    private static func duration(_ seconds: Double) -> String {
        for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return Format.number(seconds / size) + unit
        }
        return Format.number(seconds) + "s"
    }
}

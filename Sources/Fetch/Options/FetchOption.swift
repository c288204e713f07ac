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

    public static let concurrency = wholeNumber(
        "concurrency", key: "concurrency", at: \.concurrency, in: Limits.concurrency,
        "Requests in flight at once (default {default}, at most \(Limits.concurrency.upperBound)).")

    public static let budget = wholeNumber(
        "budget", key: "budget", at: \.requestBudget, in: Limits.budget, "Requests allowed per \(Format.number(FetchOptions().budgetWindow / 60)) minutes")

    public static let connectTimeout = seconds(
        "connect-timeout", key: "connect_timeout", at: \.connectTimeout, in: Limits.seconds,
        "Seconds allowed to connect and receive response headers")

    public static let readTimeout = seconds(
        "read-timeout", key: "read_timeout", at: \.readTimeout, in: Limits.seconds,
        "Seconds of silence allowed while a response arrives")

    public static let requestDeadline = seconds(
        "request-deadline", key: "request_deadline", at: \.requestDeadline, in: Limits.seconds,
        "Seconds one request may take in all, headers and body")

    public static let maxBody = wholeNumber(
        "max-body", key: "max_body_mb", at: \.maxBodyMegabytes, valueName: "MB", in: Limits.bodyMegabytes,
        "Largest answer accepted, in MB, as received and once decompressed (default {default}, at most "
            + "\(Limits.bodyMegabytes.upperBound); a USGS page of 20,000 events is 15–20 MB).")

    public static let maxRetryAfter = seconds(
        "max-retry-after", key: "max_retry_after", at: \.maxRetryAfter, in: Limits.seconds,
        "Longest Retry-After obeyed, seconds; a service asking for longer is given up on, exit 75")

    public static let giveUpAfter = seconds(
        "give-up-after", key: "give_up_after", at: \.giveUpAfter, in: Limits.seconds,
        "Seconds one request keeps trying: no attempt starts later than this after the first")

    public static let maxAttempts = wholeNumber(
        "max-attempts", key: "max_attempts", at: \.maxAttempts, in: Limits.attempts, "Attempts per request before the run gives up, exit 75")

    public static let retryDelay = seconds(
        "retry-delay", key: "retry_delay", at: \.retryBaseDelay, in: Limits.retryDelay,
        "Base of the exponential backoff between attempts, seconds")

    public static let details = FetchOption(
        flag: "details", key: "details", at: \.details, valueName: "which",
        summary: "Which quakes to fetch details of (ShakeMap, PAGER, DYFI, moment tensor, cities, tectonic summary): significant (the default: "
            + "sig ≥ 600 or a PAGER alert, as USGS's significant feed), all or none.",
        choices: DetailPolicy.allCases.map(\.rawValue), parse: OptionText.choice, text: nil)

    public static let detailsPerRun = wholeNumber(
        "details-per-run", key: "details_per_run", at: \.detailsPerRun, in: Limits.detailsPerRun,
        "Details fetched per run at most, biggest quakes first; the rest in later runs")

    public static let maxContent = wholeNumber(
        "max-content", key: "max_content_mb", at: \.maxContentMegabytes, valueName: "MB", in: Limits.bodyMegabytes,
        "Largest product file of a detail accepted, in MB, as received and once decompressed")

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

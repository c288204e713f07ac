import Foundation

/// Exponential backoff with jitter: before attempt n+1 wait a random time in
/// [d/2, d] where d = min(max, base × 2^(n-1)); a `Retry-After` from the service
/// is a floor on the wait. Shared by every client of ours: fetch's and publish's.
public struct RetryPolicy: Sendable {
    public let maxAttempts: Int
    public let baseDelay: TimeInterval
    public let maxDelay: TimeInterval
    /// Longest `Retry-After` obeyed; longer means give up.
    public let maxRetryAfter: TimeInterval
    /// No attempt starts later than this after the first began.
    public let giveUpAfter: TimeInterval

    public init(maxAttempts: Int, baseDelay: TimeInterval, maxDelay: TimeInterval, maxRetryAfter: TimeInterval, giveUpAfter: TimeInterval) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.giveUpAfter = giveUpAfter
    }

    /// Seconds to wait after failed attempt `attempt` (1-based).
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        let jittered = ceiling / 2 + Double.random(in: 0...(ceiling / 2))
        return max(jittered, retryAfter ?? 0)
    }

    /// Whether another attempt may start `elapsed` seconds after the first, after waiting
    /// `wait`; a wait the service asked for is always allowed.
    public func mayRetry(elapsed: TimeInterval, wait: TimeInterval, askedByService: Bool) -> Bool {
        askedByService || elapsed + wait <= giveUpAfter
    }

    /// Parses `Retry-After`: delta-seconds (digits only: `inf`, `nan`, `-5` and `1e9` are not)
    /// or an HTTP date.
    public static func retryAfter(_ header: String?) -> TimeInterval? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return nil }
        if header.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return min(TimeInterval(header) ?? .greatestFiniteMagnitude, 1e12) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: header).map { max(0, $0.timeIntervalSinceNow) }
    }
}

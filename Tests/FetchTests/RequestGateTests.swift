import Foundation
@testable import QuakeFetch
import Testing

/// Politeness: the gate bounds requests in flight and requests per window.
@Suite struct RequestGateTests {
    final class Meter: @unchecked Sendable {
        let lock = NSLock()
        var current = 0, highest = 0
        func enter() { lock.withLock { current += 1; highest = max(highest, current) } }
        func leave() { lock.withLock { current -= 1 } }
    }

    @Test func atMostConcurrencyInFlight() async {
        let gate = RequestGate(concurrency: 2, budget: 1000, window: 60)
        let meter = Meter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await gate.acquire()
                    meter.enter()
                    try? await Task.sleep(nanoseconds: 5_000_000)
                    meter.leave()
                    await gate.release()
                }
            }
        }
        #expect(meter.highest == 2)
    }

    @Test func budgetSpreadsRequestsOverItsWindow() async {
        let gate = RequestGate(concurrency: 4, budget: 3, window: 0.5)
        let started = Date()
        for _ in 0..<7 {
            await gate.acquire()
            await gate.release()
        }
        // 7 requests at 3 per half second need at least two full windows.
        #expect(Date().timeIntervalSince(started) >= 1.0)
    }

    @Test func backoffGrowsAndHonoursRetryAfter() {
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 1, maxDelay: 8, maxRetryAfter: 600, giveUpAfter: 120)
        #expect((0.5...1).contains(policy.delay(afterAttempt: 1, retryAfter: nil)))
        #expect((4...8).contains(policy.delay(afterAttempt: 4, retryAfter: nil)))
        #expect((4...8).contains(policy.delay(afterAttempt: 9, retryAfter: nil)))
        #expect(policy.delay(afterAttempt: 1, retryAfter: 30) == 30)
        #expect(RetryPolicy.retryAfter("120") == 120)
        #expect(RetryPolicy.retryAfter("soon") == nil)
        for nonsense in ["inf", "nan", "-5", "1e9", "0x10"] { #expect(RetryPolicy.retryAfter(nonsense) == nil, "\(nonsense)") }
        #expect(RetryPolicy.retryAfter(String(repeating: "9", count: 400)) == 1e12, "finite, and beyond any --max-retry-after")
    }

    @Test func noAttemptStartsAfterTheGiveUpTime() {
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 1, maxDelay: 8, maxRetryAfter: 600, giveUpAfter: 120)
        #expect(policy.mayRetry(elapsed: 60, wait: 8, askedByService: false))
        #expect(!policy.mayRetry(elapsed: 119, wait: 2, askedByService: false), "two drip-fed attempts used the time up")
        #expect(policy.mayRetry(elapsed: 119, wait: 300, askedByService: true), "a Retry-After within the cap is waited")
    }
}

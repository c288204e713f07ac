import Foundation

/// Politeness: at most `concurrency` requests in flight, and at most `budget`
/// requests started in any sliding `window` of seconds.
actor RequestGate {
    private let concurrency: Int
    private let budget: Int
    private let window: TimeInterval
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var started: [Date] = []

    init(concurrency: Int, budget: Int, window: TimeInterval) {
        self.concurrency = max(1, concurrency)
        self.budget = max(1, budget)
        self.window = window
    }

    /// Waits for a free slot and room in the budget; pair with `release()`.
    func acquire() async {
        if inFlight >= concurrency {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            inFlight += 1
        }
        while true {
            let now = Date()
            started.removeAll { now.timeIntervalSince($0) >= window }
            if started.count < budget { break }
            let wait = window - now.timeIntervalSince(started[0])
            try? await Task.sleep(nanoseconds: UInt64(max(0.001, wait) * 1e9))
        }
        started.append(Date())
    }

    /// Frees the slot taken by `acquire()`.
    func release() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

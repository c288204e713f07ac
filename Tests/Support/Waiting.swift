import Foundation

/// Asks `ask` every 10 ms until its answer satisfies `done`, or until `timeout` passes, and
/// returns the last answer (which `done` may not satisfy).
///
/// Only an answer asked for after the deadline ends the wait unsatisfied: on a loaded machine
/// the tests' other work can hold every thread of Swift's cooperative pool for minutes, and
/// this task may then take up an answer (a stand-in's empty request log) long after it was
/// given, when the awaited thing has long since happened.
public func latest<Answer>(_ ask: () async throws -> Answer, until done: (Answer) -> Bool,
                           timeout: TimeInterval) async throws -> Answer {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let asked = Date()
        let answer = try await ask()
        if done(answer) || asked >= deadline { return answer }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}

/// Polls `condition` (see `latest`) until it holds; throws, naming `what`, once `timeout` passes,
/// so a test that waits for another process never hangs the suite.
public func waitUntil(_ what: String, timeout: TimeInterval = 120, _ condition: () async throws -> Bool) async throws {
    guard try await latest(condition, until: { $0 }, timeout: timeout) else {
        throw ChildProcess.Failure(description: "gave up after \(Int(timeout)) s waiting for \(what)")
    }
}

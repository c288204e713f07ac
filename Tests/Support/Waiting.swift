import Foundation

/// Polls `condition` every 10 ms until it holds; throws, naming `what`, once `timeout` passes,
/// so a test that waits for another process never hangs the suite.
///
/// Only an answer asked for after the deadline ends the wait: on a loaded machine the
/// tests' other work can hold every thread of Swift's cooperative pool for minutes, and
/// this task may then take up an answer (a stand-in's empty request log) long after it
/// was given, when the awaited thing has long since happened.
public func waitUntil(_ what: String, timeout: TimeInterval = 120, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        let asked = Date()
        if try await condition() { return }
        guard asked < deadline else { throw ChildProcess.Failure(description: "gave up after \(Int(timeout)) s waiting for \(what)") }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}

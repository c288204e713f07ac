import Foundation

/// Polls `condition` every 10 ms until it holds; throws, naming `what`, once `timeout` passes,
/// so a test that waits for another process never hangs the suite.
public func waitUntil(_ what: String, timeout: TimeInterval = 120, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        guard Date() < deadline else { throw ChildProcess.Failure(description: "gave up after \(Int(timeout)) s waiting for \(what)") }
        try await Task.sleep(nanoseconds: 10_000_000)
    }
}

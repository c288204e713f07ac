import Foundation

/// Work started on another thread whose result is collected later.
final class BackgroundWork<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    /// Starts `body` on a new thread.
    init(_ name: String, _ body: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            result = Result { try body() }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the work and returns its result (or rethrows its error).
    func wait() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }
}

import Foundation

/// Work started on a thread of its own whose result is collected later with `wait()`.
///
/// The work may use objects the caller also holds (not `Sendable` ones too, as the store's
/// bulk build does with its id directory): the caller must leave them alone until `wait()`
/// returns.
public final class BackgroundWork<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let name: String
    private let body: () throws -> T
    private var result: Result<T, Error>?

    /// Starts `body` on a new thread named `name`.
    public init(_ name: String, _ body: @escaping () throws -> T) {
        self.name = name
        self.body = body
        let thread = Thread { [self] in
            result = Result { try self.body() }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the work and returns its result (or rethrows its error). May be called again.
    public func wait() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }

    /// Waits for the work and hands its result over, keeping nothing of it (for a big result
    /// used once, which would otherwise live as long as this object); a later `wait()` or
    /// `take()` throws.
    public func take() throws -> T {
        done.wait()
        defer {
            result = .failure(QuakeBakeError("the result of \(name) was already taken"))
            done.signal()
        }
        return try result!.get()
    }
}

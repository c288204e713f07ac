import Dispatch
import Foundation

/// Runs independent pieces of work on every core and gathers their results in order.
enum Parallel {
    /// `(0..<count).map(transform)`, computed concurrently; the result order is the index order.
    static func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(transform) }
        let slots = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in slots.set(i, transform(i)) }
        return slots.values()
    }

    /// Result slots written by distinct iterations (each slot once), read after all have finished.
    private final class Slots<T>: @unchecked Sendable {
        private let buffer: UnsafeMutableBufferPointer<T?>

        init(count: Int) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: nil)
        }

        deinit {
            buffer.deinitialize()
            buffer.deallocate()
        }

        func set(_ i: Int, _ value: T) { buffer[i] = value }

        func values() -> [T] { buffer.map { $0! } }
    }
}

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

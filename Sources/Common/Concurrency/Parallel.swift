import Dispatch
import Foundation

/// Runs independent pieces of work on every core and gathers their results in order.
public enum Parallel {
    /// `(0..<count).map(transform)`, computed concurrently; the result order is the index order.
    public static func map<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
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

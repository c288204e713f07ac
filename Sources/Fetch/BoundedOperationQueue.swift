import Foundation

/// The delegate queue of the fetch's URLSession: at most `capacity` callbacks wait in it.
///
/// URLSession (libcurl underneath, on Linux) reads the socket on its own thread and queues
/// every chunk of body for the delegate. A body that arrives faster than the delegate takes
/// it in (a loopback service, an endless body, a gzip bomb that libcurl inflates) piled up
/// there by the gigabyte before the delegate could count it against the body limit. Here the
/// reading thread waits while the queue is full, so the socket is read no faster than the
/// body is taken in (TCP pushes back on the sender) and at most `capacity` chunks (16 KB
/// each) are held. Foundation has no other hook for backpressure on a data task.
///
/// That wait must never meet a cancel: `URLSessionTask.cancel()` runs synchronously on the
/// reading thread's queue, so a cancel issued while the reader waits for room could wait for
/// it forever (seen once: a deadline watchdog's cancel stuck behind a full queue, the fetch
/// hung with the workspace lock held). Cancels therefore go through `lifting`, which lets
/// every waiting reader through while they run.
final class BoundedOperationQueue: OperationQueue, @unchecked Sendable {
    private let capacity: Int
    private let room = NSCondition()
    /// Callbacks queued and not yet finished (guarded by `room`).
    private var queued = 0
    /// Calls of `lifting` under way (guarded by `room`): while any, nobody waits.
    private var lifts = 0

    init(capacity: Int) {
        self.capacity = capacity
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        // A callback that queues another must not wait for itself.
        if OperationQueue.current === self {
            super.addOperation(block)
            return
        }
        room.lock()
        while queued >= capacity && lifts == 0 { room.wait() }
        queued += 1
        room.unlock()
        super.addOperation { [self] in
            block()
            room.lock()
            queued -= 1
            room.signal()
            room.unlock()
        }
    }

    /// Runs `body` with the bound lifted: a reader waiting for room, or one that comes while
    /// `body` runs, queues its callback at once. For calls that wait for URLSession's reading
    /// thread (cancelling a task, invalidating the session).
    func lifting<T>(_ body: () throws -> T) rethrows -> T {
        room.lock()
        lifts += 1
        room.broadcast()
        room.unlock()
        defer {
            room.lock()
            lifts -= 1
            room.unlock()
        }
        return try body()
    }
}

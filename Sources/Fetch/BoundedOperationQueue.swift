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
final class BoundedOperationQueue: OperationQueue, @unchecked Sendable {
    private let slots: DispatchSemaphore

    init(capacity: Int) {
        slots = DispatchSemaphore(value: capacity)
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        // A callback that queues another must not wait for itself.
        if OperationQueue.current === self {
            super.addOperation(block)
            return
        }
        slots.wait()
        let slots = slots
        super.addOperation {
            block()
            slots.signal()
        }
    }
}

import Foundation
@testable import QuakeFetch
import Testing

/// The delegate queue's backpressure and the way past it: a reader waits while the queue is
/// full, and a cancel (run through `lifting`) lets it through instead of waiting for it forever.
/// (The hang this guards against: a deadline watchdog's `task.cancel()` waited on URLSession's
/// reading thread, which waited for room in a queue that did not drain.)
@Suite struct BoundedOperationQueueTests {
    /// A queue of capacity 2 held full by its first callback until `release` is signalled, and a
    /// reader on another thread adding one more callback; `added` is signalled once it got in.
    private func readerAtAFullQueue() -> (queue: BoundedOperationQueue, release: DispatchSemaphore, added: DispatchSemaphore) {
        let queue = BoundedOperationQueue(capacity: 2)
        let release = DispatchSemaphore(value: 0), added = DispatchSemaphore(value: 0)
        queue.addOperation { release.wait() }
        queue.addOperation {}
        DispatchQueue.global().async {
            queue.addOperation {}
            added.signal()
        }
        return (queue, release, added)
    }

    @Test func aReaderWaitsWhileTheQueueIsFull() {
        let (queue, release, added) = readerAtAFullQueue()
        // Room comes only when the first callback ends; before that the reader is still waiting.
        #expect(added.wait(timeout: .now() + 0.2) == .timedOut)
        release.signal()
        #expect(added.wait(timeout: .now() + 30) == .success)
        queue.waitUntilAllOperationsAreFinished()
    }

    @Test func liftingLetsAWaitingReaderThrough() {
        let (queue, release, added) = readerAtAFullQueue()
        // What a cancel does: wait for the reading thread. Without the lift it never comes,
        // since the queue does not drain until `release`.
        let through = queue.lifting { added.wait(timeout: .now() + 30) }
        #expect(through == .success)
        release.signal()
        queue.waitUntilAllOperationsAreFinished()
    }
}

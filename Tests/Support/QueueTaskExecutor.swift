import Dispatch
import Testing

/// A serial dispatch queue as a task executor, for the tests that are long chains of awaits
/// (`.onAThreadOfItsOwn`).
@available(macOS 15.0, iOS 18.0, *)
final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Runs each test it marks with its tasks on a thread of its own (`QueueTaskExecutor`), not on
/// Swift's cooperative pool.
///
/// On Linux the pool has a thread per core, and the suites run at once: each continuation of a
/// test that is a long chain of awaits (the replay's 124 bakes one after another, the pull kill
/// trials) waits until a thread of the pool is free of the other suites' synchronous work, for
/// seconds at a time under load. Such a chain ended the whole run long after the rest.
public struct OwnThreadTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, #available(macOS 15.0, iOS 18.0, *) else {
            try await function()  // a suite's own scope, or a system without task executors
            return
        }
        try await withTaskExecutorPreference(QueueTaskExecutor(label: test.name), operation: function)
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test it marks runs on a thread of its own (`OwnThreadTrait` says why).
    public static var onAThreadOfItsOwn: Self { Self() }
}

import Foundation
import QuakeCommon

/// A progress sink that passes everything on and calls `stageBegan` whenever the
/// reported stage changes (`fetch`, `index`, `export`, `switch`, `publish`).
final class StageRecorder: ProgressSink, @unchecked Sendable {
    private let next: any ProgressSink
    private let stageBegan: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stage = ""

    init(forwardingTo next: any ProgressSink, stageBegan: @escaping @Sendable (String) -> Void) {
        self.next = next
        self.stageBegan = stageBegan
    }

    func update(_ snapshot: ProgressSnapshot) {
        let changed = lock.withLock { () -> Bool in
            guard snapshot.stage != stage else { return false }
            stage = snapshot.stage
            return true
        }
        if changed { stageBegan(snapshot.stage) }
        next.update(snapshot)
    }

    func finish() { next.finish() }
}

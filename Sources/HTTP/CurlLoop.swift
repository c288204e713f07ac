import CCurl
import Foundation

/// The thread that drives a client's transfers: adds new ones to curl's multi handle, lets
/// curl move bytes (`curl_multi_perform`, which calls the transfers' callbacks on this
/// thread), ends the finished, cancelled and expired ones, and waits in `curl_multi_poll` no
/// longer than the nearest timeout of a transfer.
final class CurlLoop: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    // Guarded by `lock`: what other threads hand to the loop.
    private var incoming: [CurlTransfer] = []
    private var cancelled: [CurlTransfer] = []
    private var closed = false
    // The loop thread's own.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// Transfers cancelled before they reached the loop (a task cancelled already when it sent).
    private var cancelledEarly: Set<ObjectIdentifier> = []

    init() {
        CurlLoop.initialiseOnce
        multi = curl_multi_init()!
        let thread = Thread { [self] in run() }
        thread.name = "quake-bake HTTP"
        thread.start()
    }

    /// `curl_global_init` is not thread-safe: done once, before the first handle.
    private static let initialiseOnce: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    func submit(_ transfer: CurlTransfer) {
        let refused = lock.withLock { () -> Bool in
            if closed { return true }
            incoming.append(transfer)
            return false
        }
        if refused { transfer.finish(.failure(TransferFailure.broken("the HTTP client is closed"))) } else { curl_multi_wakeup(multi) }
    }

    func cancel(_ transfer: CurlTransfer) {
        lock.withLock { cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { curl_multi_wakeup(multi) }
    }

    private func run() {
        var running: Int32 = 0
        while true {
            let (new, stopping, closing) = lock.withLock { () -> ([CurlTransfer], [CurlTransfer], Bool) in
                defer { incoming = []; cancelled = [] }
                return (incoming, cancelled, closed)
            }
            for transfer in new { start(transfer) }
            for transfer in stopping {
                if transfer.easy == nil { cancelledEarly.insert(ObjectIdentifier(transfer)) }
                end(transfer, .failure(CancellationError()))
            }
            if closing {
                for transfer in Array(active.values) { end(transfer, .failure(CancellationError())) }
                break
            }
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let transfer = active[easy] else { continue }
                end(transfer, transfer.outcome(message.pointee.data.result))
            }
            let now = CurlTransfer.clock()
            var wait = 1.0
            for transfer in Array(active.values) {
                switch transfer.check(at: now) {
                case .expired(let failure): end(transfer, .failure(failure))
                case .checkIn(let seconds): wait = min(wait, seconds)
                }
            }
            curl_multi_poll(multi, nil, 0, Int32(max(1, (wait * 1000).rounded(.up))), nil)
        }
        curl_multi_cleanup(multi)
    }

    private func start(_ transfer: CurlTransfer) {
        if cancelledEarly.remove(ObjectIdentifier(transfer)) != nil { return transfer.finish(.failure(CancellationError())) }
        do {
            let easy = try transfer.prepare()
            active[easy] = transfer
            curl_multi_add_handle(multi, easy)
        } catch {
            transfer.finish(.failure(error))
        }
    }

    /// Takes `transfer` out of the loop (a no-op when it already left) and resumes its caller.
    private func end(_ transfer: CurlTransfer, _ result: Result<HTTPResponse, Error>) {
        guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { return }
        curl_multi_remove_handle(multi, easy)
        transfer.finish(result)
    }
}

import Foundation
import Logging
import NIOCore

/// The connections one `serve` holds, and which of them may go: at most `limit` at once, and
/// when one more comes, the one silent longest among those not being answered (waiting for a
/// request, or sending its head) is closed to make room; one being answered is never cut. When `accept` fails for want
/// of descriptors (EMFILE, ENFILE) despite the limit, the limit comes down to three quarters of
/// the connections held and the idle ones past it are closed, so the next `accept` finds a
/// descriptor. A thousand idle sockets therefore cost a normal request nothing but an idle
/// neighbour.
///
/// Used on the server's one event loop only (connections and the listening socket share it),
/// so it needs no lock.
final class ConnectionRegistry: @unchecked Sendable {
    private struct Entry {
        let channel: Channel
        var answering = false
        /// When it last sent bytes or was answered, in the order of events here (larger: more recently).
        var idleSince: UInt64
    }

    private var limit: Int
    private let logger: Logger
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var clock: UInt64 = 0
    /// Connections closed to make room, for the log.
    private var evicted = 0

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// A new connection: room is made first when the registry is full; when every connection
    /// held is being answered, the new one is closed instead.
    func opened(_ channel: Channel) {
        while entries.count >= limit {
            guard evictSilentLongest() else {
                logger.warning("\(limit) connections are all being answered: a new one is closed (--max-connections)")
                channel.close(promise: nil)
                return
            }
            if evicted == 1 || evicted % 1_000 == 0 {
                logger.info("\(limit) connections held: closing the ones silent longest to make room (\(evicted) so far)")
            }
        }
        clock += 1
        entries[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: clock)
    }

    func closed(_ channel: Channel) {
        entries.removeValue(forKey: ObjectIdentifier(channel))
    }

    /// The connection sent bytes: it is the most recently active (the one silent longest goes first).
    func heardFrom(_ channel: Channel) {
        clock += 1
        entries[ObjectIdentifier(channel)]?.idleSince = clock
    }

    /// The connection began (`true`) or finished (`false`) answering; finishing makes it the most recently idle.
    func busyAnswering(_ channel: Channel, _ answering: Bool) {
        guard var entry = entries[ObjectIdentifier(channel)] else { return }
        entry.answering = answering
        if !answering {
            clock += 1
            entry.idleSince = clock
        }
        entries[ObjectIdentifier(channel)] = entry
    }

    /// `accept` found no descriptor: the limit comes down to three quarters of the connections
    /// held (never below 4), and connections not being answered are closed to fit. Returns how
    /// many were closed.
    func descriptorsRanOut() -> Int {
        let lowered = max(Self.minimumLimit, entries.count - max(1, entries.count / 4))
        var closed = 0
        while entries.count >= lowered, evictSilentLongest() { closed += 1 }
        if lowered < limit {
            logger.warning("out of file descriptors accepting a connection: holding at most \(lowered) connections from now on (was \(limit)); closed \(closed) idle")
            limit = lowered
        }
        return closed
    }

    /// The lowest the limit comes down to when descriptors run out.
    static let minimumLimit = 4

    /// Closes the connection silent longest among those not being answered; `false` when there is none.
    private func evictSilentLongest() -> Bool {
        guard let silent = entries.filter({ !$0.value.answering }).min(by: { $0.value.idleSince < $1.value.idleSince }) else { return false }
        entries.removeValue(forKey: silent.key)
        silent.value.channel.close(promise: nil)
        evicted += 1
        return true
    }
}

/// On the listening socket, before NIO's `AcceptBackoffHandler`: an `accept` that fails for
/// want of descriptors is not the end of `serve` (NIO keeps the socket open). Idle connections
/// are closed to free some on the next turn of the event loop (the connections accepted in the
/// same read register first, so the registry counts them), and the next `accept` comes 10 ms on.
final class AcceptErrorHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = Channel
    typealias InboundOut = Channel

    private let registry: ConnectionRegistry
    private let logger: Logger

    init(registry: ConnectionRegistry, logger: Logger) {
        self.registry = registry
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IOError, error.errnoCode == EMFILE || error.errnoCode == ENFILE {
            let registry = self.registry
            context.eventLoop.execute { _ = registry.descriptorsRanOut() }
        } else {
            logger.warning("accepting a connection: \(error)")
        }
        context.fireErrorCaught(error)
    }

    /// The pause before the next `accept` (`AcceptBackoffHandler`'s provider).
    static func backoff(_ error: IOError) -> TimeAmount? {
        .milliseconds(10)
    }
}

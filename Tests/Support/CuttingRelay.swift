import Foundation

/// A TCP relay on a free loopback port to a server on `upstreamPort`: every byte passes both
/// ways until a client sends `marker` (the start of a request line, say `PUT /`) for the
/// `occurrence`-th time, counted over every connection; those bytes are not passed on. Then, by
/// its ``Action``, the server is gone for the client (`.cut`: every connection closed, new ones
/// refused, as when the server dies) or stops answering (`.hold`: that request and every byte
/// after it wait, connections open, until ``cut()``), at a point of the client's work the test chose,
/// whatever the machine's load (a server killed when a log line appears, or a client killed after
/// a while, may be too late or too early). Bytes pass unchanged, so a signature over the `Host`
/// header (S3's SigV4) still holds.
public final class CuttingRelay: @unchecked Sendable {
    /// What the relay does once the marker has come `occurrence` times.
    public enum Action: Sendable {
        /// Closes every connection and refuses new ones.
        case cut
        /// Passes no more bytes from clients, leaving their connections open.
        case hold
    }

    /// A request line's end: counts the requests a client makes.
    public static let requestLine = "HTTP/1.1\r\n"

    public let port: UInt16
    private let upstreamPort: UInt16
    private let marker: Data
    private let occurrence: Int
    private let action: Action
    private let listener: Int32
    private let lock = NSLock()
    private var sockets: [Int32] = []
    private var isCut = false
    private var seen = 0

    /// A relay that cuts at the first `PUT /`, say.
    public convenience init(upstreamPort: UInt16, cutAt: String) throws {
        try self.init(upstreamPort: upstreamPort, at: cutAt, occurrence: 1, action: .cut)
    }

    /// A relay that does `action` when `marker` has been sent `occurrence` times.
    public init(upstreamPort: UInt16, at marker: String, occurrence: Int, action: Action) throws {
        self.upstreamPort = upstreamPort
        self.marker = Data(marker.utf8)
        self.occurrence = occurrence
        self.action = action
        let (fd, port) = try LoopbackSocket.listening(backlog: 64)
        listener = fd
        self.port = port
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                Thread { [self] in relay(client) }.start()
            }
        }.start()
    }

    deinit { cut() }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Whether the relay has cut (`.cut` at the marker, or `cut()` was called).
    public var wasCut: Bool { lock.withLock { isCut } }

    /// How many times clients have sent the marker (with ``requestLine``: how many requests they made).
    public var occurrences: Int { lock.withLock { seen } }

    /// Whether the marker has come `occurrence` times: with `.hold`, a request is waiting.
    public var isHolding: Bool { lock.withLock { seen >= occurrence } }

    /// Ends every connection and stops listening: new connections are refused. (Sockets are shut
    /// down here and closed by their relay once both its directions have ended, so that no
    /// descriptor number is used after another socket got it.)
    public func cut() {
        let open = lock.withLock { () -> [Int32]? in
            defer { isCut = true }
            return isCut ? nil : sockets
        }
        guard let open else { return }
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Passes `client`'s bytes to a new connection upstream and back, until either side ends or the cut.
    private func relay(_ client: Int32) {
        guard let upstream = LoopbackSocket.connected(to: upstreamPort) else {
            close(client)
            return
        }
        let admitted = lock.withLock { () -> Bool in
            if !isCut { sockets += [client, upstream] }
            return !isCut
        }
        guard admitted else {
            close(client)
            close(upstream)
            return
        }
        let answered = DispatchSemaphore(value: 0)
        Thread { [self] in
            pump(from: upstream, to: client, watching: false)
            answered.signal()
        }.start()
        pump(from: client, to: upstream, watching: true)
        answered.wait()
        lock.withLock { sockets.removeAll { $0 == client || $0 == upstream } }
        close(client)
        close(upstream)
    }

    /// Copies bytes from `source` to `target`; with `watching`, counts the marker (one split
    /// across two reads too), and the bytes that bring it to `occurrence` are not passed on: by
    /// the action, everything is cut, or nothing more passes (later reads find the count reached).
    private func pump(from source: Int32, to target: Int32, watching: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var tail = Data()
        while true {
            let got = read(source, &buffer, buffer.count)
            guard got > 0 else {
                shutdown(target, Int32(SHUT_WR))
                return
            }
            if watching {
                let seen = tail + Data(buffer[..<got])
                if count(in: seen, after: tail.count) {
                    if action == .cut {
                        cut()
                        shutdown(target, Int32(SHUT_RDWR))
                    }
                    return  // held: the request waits, its connection open, until cut()
                }
                tail = seen.suffix(marker.count - 1)
            }
            var offset = 0
            while offset < got {
                let written = buffer.withUnsafeBytes { write(target, $0.baseAddress! + offset, got - offset) }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// Counts the markers in `data` that end past its first `old` bytes (those were counted
    /// before); whether the count has reached `occurrence`.
    private func count(in data: Data, after old: Int) -> Bool {
        var found = 0
        var start = data.startIndex
        while let range = data.range(of: marker, in: start..<data.endIndex) {
            if range.upperBound - data.startIndex > old { found += 1 }
            start = range.upperBound
        }
        return lock.withLock {
            seen += found
            return seen >= occurrence
        }
    }
}

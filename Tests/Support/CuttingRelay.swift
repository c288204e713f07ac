import Foundation

/// A TCP relay on a free loopback port to a server on `upstreamPort`: every byte passes both
/// ways until a client sends `cutAt` (the start of a request line, say `PUT /`), which is not
/// passed on. From then on the server is gone for the client: every connection is closed and new
/// ones are refused, as when the server dies, but at a point of the client's work the test
/// chose, whatever the machine's load (a server killed when a log line appears may be too late).
/// Bytes pass unchanged, so a signature over the `Host` header (S3's SigV4) still holds.
public final class CuttingRelay: @unchecked Sendable {
    public let port: UInt16
    private let upstreamPort: UInt16
    private let cutAt: Data
    private let listener: Int32
    private let lock = NSLock()
    private var sockets: [Int32] = []
    private var isCut = false

    public init(upstreamPort: UInt16, cutAt: String) throws {
        self.upstreamPort = upstreamPort
        self.cutAt = Data(cutAt.utf8)
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

    /// Whether a client has sent `cutAt` (or `cut()` was called).
    public var wasCut: Bool { lock.withLock { isCut } }

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

    /// Copies bytes from `source` to `target`; with `watching`, the bytes that hold `cutAt` are
    /// not passed on but cut everything instead (a marker split across two reads is found too).
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
                if seen.range(of: cutAt) != nil {
                    cut()
                    shutdown(target, Int32(SHUT_RDWR))
                    return
                }
                tail = seen.suffix(cutAt.count - 1)
            }
            var offset = 0
            while offset < got {
                let written = buffer.withUnsafeBytes { write(target, $0.baseAddress! + offset, got - offset) }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP end of a connection: hands each request to `BundleRoutes` on the thread pool and
/// writes the answer back (a file by `sendfile`); a request with a body is refused (413, and the
/// connection closes: nothing here takes one). Tells `RequestHeadGuard` when an answer is out.
final class BundleChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: BundleRoutes
    private let pool: NIOThreadPool
    private let logger: Logger
    /// The request being read, until its end; `nil` after a refused one.
    private var head: HTTPRequestHead?

    init(routes: BundleRoutes, pool: NIOThreadPool, logger: Logger) {
        self.routes = routes
        self.pool = pool
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let length = head.headers.first(name: "Content-Length").flatMap { Int($0) }
            if head.headers.contains(name: "Transfer-Encoding") || (length ?? 0) != 0 {
                self.head = nil
                send(.text(.payloadTooLarge, "Payload Too Large: serve takes no request body\n"), for: head, keepAlive: false, context: context)
            } else {
                self.head = head
            }
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            let routes = self.routes
            let defaultHost = context.channel.localAddress.map(Self.hostAndPort) ?? "127.0.0.1"
            pool.runIfActive(eventLoop: context.eventLoop) { routes.answer(head, defaultHost: defaultHost) }
                .assumeIsolated()
                .whenComplete { result in
                    switch result {
                    case .success(let answer): self.send(answer, for: head, keepAlive: head.isKeepAlive, context: context)
                    case .failure(let error): self.send(.text(.serviceUnavailable, "Service Unavailable: \(error)\n"), for: head, keepAlive: false, context: context)
                    }
                }
        }
    }

    /// Writes `answer` (no body for HEAD, 204 and 304), then closes the connection unless it is kept alive.
    private func send(_ answer: ServeAnswer, for head: HTTPRequestHead, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = answer.headers
        if answer.status != .noContent && answer.status != .notModified {
            headers.replaceOrAdd(name: "Content-Length", value: String(answer.length))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: headers))), promise: nil)
        var file: NIOFileHandle?
        switch answer.body {
        case .none: break
        case .bytes(let buffer): if head.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil) }
        case .file(let handle, let size):
            file = handle
            if head.method != .HEAD, size > 0 {
                context.write(wrapOutboundOut(.body(.fileRegion(FileRegion(fileHandle: handle, readerIndex: 0, endIndex: size)))), promise: nil)
            }
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            try? file?.close()
            context.triggerUserOutboundEvent(RequestHeadGuard.AnswerSent(), promise: nil)
            if !keepAlive { context.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection: \(error)")
        context.close(promise: nil)
    }

    /// `127.0.0.1:8080`, `[::1]:8080`: the address a client reached, for URLs when its `Host` is unusable.
    static func hostAndPort(_ address: SocketAddress) -> String {
        let ip = address.ipAddress ?? "127.0.0.1"
        return (ip.contains(":") ? "[\(ip)]" : ip) + ":\(address.port ?? 80)"
    }
}
